import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { applyLanguage } from '../../app/i18n';
import { jsonResponse, renderRoutes } from '../../testing/render';
import type { StationStatus } from './station-events';
import { StationSettingsPage } from './station-settings';
import { StationStatusBar } from './station-status-bar';

const loaded = {
  server: { url: 'https://accredo.example.com' },
  http: { host: '127.0.0.1', port: 8090 },
  language: 'cs',
  direction: 'entry',
  kiosk: false,
  readers: [{ id: 'in', type: 'serial', path: '/dev/ttyACM0', baudRate: 9600, terminator: 'CR', direction: 'entry' }],
  relay: { type: 'serial', path: '/dev/ttyUSB0', baudRate: 9600, openHex: 'A0 01 01 A2', closeHex: '', pulseMs: 500 },
  printer: null,
  pinSet: false,
};

interface Call {
  method: string;
  url: string;
  body: any;
  pin: string | null;
}

function mockStation(answers: Partial<Record<string, (call: Call) => Response>> = {}, settings: unknown = loaded) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const headers = (init?.headers ?? {}) as Record<string, string>;
      const call: Call = {
        method: init?.method ?? 'GET',
        url,
        body: init?.body ? JSON.parse(String(init.body)) : undefined,
        pin: headers['x-station-pin'] ?? null,
      };
      calls.push(call);
      const what = url.replace('/api/station/v1/', '');
      const answer = answers[`${call.method} ${what}`];
      if (answer) return answer(call);
      if (what === 'settings' && call.method === 'GET')
        return settings ? jsonResponse({ data: settings }) : jsonResponse({ error: { code: 'NOT_FOUND' } }, 404);
      if (what === 'ports') return jsonResponse({ data: [{ path: '/dev/ttyACM0', manufacturer: 'Honeywell' }] });
      if (what === 'hid') return jsonResponse({ data: [{ vendorId: 0x0c2e, productId: 0x0b61, product: 'Voyager' }] });
      if (what === 'printers') return jsonResponse({ data: [{ name: 'badge-desk', isDefault: true }] });
      return jsonResponse({ error: { code: 'NOT_FOUND', message: url, details: null } }, 404);
    }),
  );
  return calls;
}

const renderSettings = () =>
  renderRoutes(
    [
      { path: 'gate/settings', element: <StationSettingsPage /> },
      { path: 'gate', element: <p>gate screen</p> },
    ],
    ['/gate/settings'],
  );

beforeEach(() => applyLanguage('en'));
afterEach(() => vi.unstubAllGlobals());

describe('the station settings screen', () => {
  it('opens from the gear on the station status bar', async () => {
    mockStation();
    const status = {
      paired: false,
      mode: 'offline',
      queue: 0,
      lastSyncAt: null,
      readers: [],
      relay: null,
      printer: null,
    } as unknown as StationStatus;
    const { user } = renderRoutes(
      [
        { path: 'gate', element: <StationStatusBar status={status} connected /> },
        { path: 'gate/settings', element: <StationSettingsPage /> },
      ],
      ['/gate'],
    );
    await user.click(screen.getByRole('link', { name: 'Station settings' }));
    expect(await screen.findByRole('heading', { name: 'Station settings' })).toBeVisible();
  });

  it('says it needs a station when the server serves it', async () => {
    mockStation({}, null);
    renderSettings();
    expect(await screen.findByText(/available only at an Accredo Station/)).toBeVisible();
  });

  it('saves the edited settings and adds a HID reader from the device list', async () => {
    const calls = mockStation({
      'PUT settings': (call) => jsonResponse({ data: { ...call.body, pinSet: false } }),
    });
    const { user } = renderSettings();
    const server = await screen.findByRole('textbox', { name: 'Server address' });
    expect(server).toHaveValue('https://accredo.example.com');
    await user.clear(server);
    await user.paste('https://gate.example.org');
    await user.click(screen.getByRole('switch', { name: 'Kiosk mode (full screen)' }));
    await user.click(screen.getByRole('button', { name: 'Add a HID reader' }));
    const hid = screen.getByRole('group', { name: 'Reader 2' });
    expect(within(hid).getByRole('textbox', { name: 'Vendor ID' })).toHaveValue('0x0c2e');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Settings saved and applied')).toBeVisible();
    const put = calls.find((c) => c.method === 'PUT');
    expect(put?.url).toBe('/api/station/v1/settings');
    expect(put?.body).toMatchObject({
      server: { url: 'https://gate.example.org' },
      kiosk: true,
      http: { host: '127.0.0.1', port: 8090 },
      readers: [
        { id: 'in', type: 'serial', path: '/dev/ttyACM0', baudRate: 9600, terminator: 'CR', direction: 'entry' },
        { id: 'reader2', type: 'hid', vendorId: '0x0c2e', productId: '0x0b61', format: 'auto' },
      ],
      relay: { type: 'serial', path: '/dev/ttyUSB0', openHex: 'A0 01 01 A2', pulseMs: 500 },
      printer: null,
    });
    expect(put?.body.pinSet).toBeUndefined();
    expect(put?.body.newPin).toBeUndefined();
  });

  it('shows the station errors at their fields', async () => {
    mockStation({
      'PUT settings': () =>
        jsonResponse(
          {
            error: {
              code: 'VALIDATION_ERROR',
              message: 'The settings are not valid',
              details: [
                {
                  path: 'readers.0.baudRate',
                  key: 'basics.invalidValue',
                  message: 'Too small: expected number to be >0',
                },
                { path: 'relay.openHex', key: 'gate.settings.hexInvalid', message: 'Not a hex byte sequence' },
              ],
            },
          },
          400,
        ),
    });
    const { user } = renderSettings();
    const baud = (await screen.findAllByRole('textbox', { name: 'Baud rate' }))[0];
    await user.clear(baud);
    await user.paste('-5');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The settings cannot be saved')).toBeVisible();
    const reader = screen.getByRole('group', { name: 'Reader 1' });
    expect(within(reader).getByText('Invalid value: Too small: expected number to be >0')).toBeVisible();
    expect(screen.getByText('Not hex bytes (e.g. A0 01 01 A2)')).toBeVisible();
    expect(screen.queryByText('Settings saved and applied')).toBeNull();
  });

  it('tests the relay and says what went wrong, with the PIN when one is set', async () => {
    let ok = true;
    const calls = mockStation(
      {
        'POST relay/test': () =>
          jsonResponse({
            data: ok ? { ok: true, message: null } : { ok: false, message: 'No such file /dev/ttyUSB0' },
          }),
      },
      { ...loaded, pinSet: true },
    );
    const { user } = renderSettings();
    await user.click(await screen.findByLabelText('Station PIN'));
    await user.paste('4711');
    await user.click(screen.getByRole('button', { name: 'Test relay' }));
    expect(await screen.findByText('The relay switched')).toBeVisible();
    expect(calls.find((c) => c.url === '/api/station/v1/relay/test')).toMatchObject({ method: 'POST', pin: '4711' });

    ok = false;
    await user.click(screen.getByRole('button', { name: 'Test relay' }));
    expect(await screen.findByText('The relay did not switch: No such file /dev/ttyUSB0')).toBeVisible();
  });
});
