import { act, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { GATE_STORAGE, type GateConfig } from '../../api/gate';
import { applyLanguage } from '../../app/i18n';
import { jsonResponse, renderRoutes } from '../../testing/render';
import { GatePage } from './gate-page';
import type { StationStatus } from './station-events';

/** The browser's EventSource, driven by the test (jsdom has none). */
class FakeEventSource {
  static last: FakeEventSource | null = null;
  readonly listeners = new Map<string, ((event: MessageEvent<string>) => void)[]>();
  onopen: (() => void) | null = null;
  onerror: (() => void) | null = null;
  closed = false;
  constructor(readonly url: string) {
    FakeEventSource.last = this;
  }
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  close() {
    this.closed = true;
  }
  emit(type: string, data: unknown) {
    for (const listener of this.listeners.get(type) ?? [])
      listener(new MessageEvent(type, { data: JSON.stringify(data) }));
  }
}

const config: GateConfig = {
  device: { id: 7, name: 'Desk 1', uid: 'station-1', appVersion: 'station-0.1.0' },
  subject: { id: 1, name: 'Org', timeZone: 'Europe/Prague' },
  template: { id: 3, name: 'Main entrance', mode: 1, zoneId: null },
  action: { id: 2, name: 'Festival' },
  zone: null,
  screen: { configured: true, mode: 1, directions: ['entry', 'exit'], askAmount: false },
};

const status = (over: Partial<StationStatus> = {}): StationStatus => ({
  version: '0.1.0',
  uid: 'station-1',
  server: 'https://accredo.example.com',
  paired: true,
  device: { id: 7, name: 'Desk 1' },
  mode: 'offline',
  lastSyncAt: new Date(Date.now() - 125_000).toISOString(),
  lastSyncAgeMs: 125_000,
  queue: 2,
  people: 10,
  lastError: null,
  violations: 0,
  direction: 'entry',
  language: 'en',
  readers: [
    { readerId: 'in', status: 'open', message: null, direction: 'entry' },
    { readerId: 'out', status: 'closed', message: 'unplugged', direction: 'exit' },
  ],
  relay: { type: 'serial', state: 'ready', message: null },
  printer: { name: 'desk', printOnScan: true, state: 'unavailable', message: null },
  ...over,
});

function mockStation(answerStatus: StationStatus | null) {
  const calls: { method: string; url: string }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const method = init?.method ?? 'GET';
      calls.push({ method, url });
      if (url === '/api/station/v1/status')
        return answerStatus
          ? jsonResponse({ data: answerStatus })
          : jsonResponse({ error: { code: 'NOT_FOUND' } }, 404);
      if (url === '/api/device/v1/config') return jsonResponse({ data: config });
      if (url === '/api/station/v1/forget') return jsonResponse({ data: { unpaired: true } });
      return jsonResponse({ error: { code: 'NOT_FOUND', message: url } }, 404);
    }),
  );
  vi.stubGlobal('EventSource', FakeEventSource);
  return calls;
}

const renderGate = () => renderRoutes([{ path: 'gate', element: <GatePage /> }], ['/gate']);
const bar = () => screen.getByRole('region', { name: 'Station status' });

beforeEach(() => {
  applyLanguage('en');
  FakeEventSource.last = null;
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the gate screen served by a station', () => {
  it('is the plain browser gate when no station answers', async () => {
    const calls = mockStation(null);
    renderGate();
    expect(await screen.findByRole('textbox', { name: /Pairing code/ })).toBeVisible();
    expect(calls.some((c) => c.url === '/api/station/v1/status')).toBe(true);
    expect(screen.queryByRole('region', { name: 'Station status' })).toBeNull();
    expect(FakeEventSource.last).toBeNull();
  });

  it('shows the station status, follows it, and shows the decisions of its readers', async () => {
    mockStation(status());
    renderGate();
    // paired at the station: the gate screen without a token in this browser
    expect(await screen.findByText('Main entrance')).toBeVisible();
    expect(window.localStorage.getItem(GATE_STORAGE.token)).toBeNull();
    const b = within(bar());
    expect(b.getByText('Offline: the station decides')).toBeVisible();
    expect(b.getByText(/^Last sync .* \(2 min ago\)$/)).toBeVisible();
    expect(b.getByText('Waiting for upload: 2')).toBeVisible();
    expect(b.getByText('Reader in: ready')).toBeVisible();
    expect(b.getByText('Reader out: unplugged')).toBeVisible();
    expect(b.getByText('Gate relay: ready')).toBeVisible();
    expect(b.getByText('Printer desk: badges not available')).toBeVisible();
    const source = FakeEventSource.last!;
    expect(source.url).toBe('/api/station/v1/events');

    act(() => {
      source.onopen?.();
      source.emit('status', status({ mode: 'online', queue: 0 }));
    });
    expect(within(bar()).getByText('Online')).toBeVisible();
    expect(within(bar()).getByText('Waiting for upload: 0')).toBeVisible();

    act(() => source.emit('scan', { readerId: 'in', code: 'JANA0001', direction: 'entry' }));
    expect(screen.getByRole('status')).toHaveTextContent('Checking JANA0001');
    act(() =>
      source.emit('decision', {
        readerId: 'in',
        code: 'JANA0001',
        answer: {
          nonce: 'n',
          allowed: true,
          reason: 'OK',
          data: {},
          info: false,
          effects: [],
          direction: 'entry',
          at: new Date().toISOString(),
          person: {
            id: 11,
            customId: 1,
            firstname: 'Jana',
            lastname: 'Nováková',
            bc: 'JANA0001',
            imageId: null,
            groupIds: [],
            zoneIds: [],
            credit: 0,
            isUnlimited: false,
          },
          message: 'OK',
          replay: false,
          offline: true,
        },
      }),
    );
    expect(screen.getByRole('status')).toHaveTextContent(/Allowed/);
    expect(screen.getByRole('status')).toHaveTextContent('Jana Nováková');
    expect(screen.getByText(/Scans this session: 1 \(allowed 1, refused 0\)/)).toBeVisible();

    act(() => source.emit('failed', { readerId: 'in', code: 'X1', error: 'UNAUTHORIZED', message: 'x' }));
    expect(screen.getByRole('status')).toHaveTextContent('X1');

    // unpaired at the station (bcClear at its reader): back to pairing, the bar stays
    act(() => source.emit('status', status({ paired: false, device: null })));
    expect(await screen.findByRole('textbox', { name: /Pairing code/ })).toBeVisible();
    expect(within(bar()).getByText('Station not paired')).toBeVisible();
  });

  it('the unpair button makes the station forget its pairing', async () => {
    const calls = mockStation(status());
    const { user } = renderGate();
    await user.click(await screen.findByRole('button', { name: 'Unpair' }));
    await user.click(screen.getByRole('button', { name: 'Yes, unpair' }));
    expect(calls.some((c) => c.method === 'POST' && c.url === '/api/station/v1/forget')).toBe(true);
  });
});
