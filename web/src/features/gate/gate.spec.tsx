import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { GATE_STORAGE, type GateConfig, type GateNetwork, type GateScanAnswer } from '../../api/gate';
import { applyLanguage } from '../../app/i18n';
import { jsonResponse, renderRoutes } from '../../testing/render';
import { GatePage } from './gate-page';

/** Retries without pauses; a generous timeout except where a test hangs the server on purpose. */
const FAST: GateNetwork = { timeoutMs: 10_000, attempts: 3, retryDelayMs: 0 };

const config = (over: Partial<GateConfig> = {}): GateConfig => ({
  device: { id: 7, name: 'North gate', uid: 'uid-1', appVersion: 'web-gate' },
  subject: { id: 1, name: 'Org', timeZone: 'Europe/Prague' },
  template: { id: 3, name: 'Main entrance', mode: 1, zoneId: 4 },
  action: { id: 2, name: { cs: 'Festival CZ', sk: '', en: 'Festival', de: '' } },
  zone: { id: 4, name: 'Backstage' },
  screen: { configured: true, mode: 1, directions: ['entry', 'exit'], askAmount: false },
  ...over,
});

const person = {
  id: 11,
  customId: 1,
  firstname: 'Jana',
  lastname: 'Nováková',
  bc: 'JANA0001',
  imageId: null,
  groupIds: [5],
  zoneIds: [4],
  credit: 0,
  isUnlimited: false,
};

const answer = (over: Partial<GateScanAnswer>): GateScanAnswer => ({
  nonce: 'n',
  allowed: true,
  reason: 'OK',
  data: {},
  info: false,
  effects: [],
  direction: 'entry',
  at: '2026-11-25T09:00:00.000Z',
  person,
  message: 'server text',
  replay: false,
  ...over,
});

type Call = { method: string; path: string; body: any; headers: Record<string, string> };
type Handler = (body: any, call: Call, init?: RequestInit) => Response | Promise<Response>;

/** A fake device API (`/api/device/v1/…`): `METHOD path` → a handler; records every call. */
function mockDeviceApi(routes: Record<string, Handler>) {
  const calls: Call[] = [];
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    const path = url.replace('/api/device/v1/', '');
    const body = init?.body ? JSON.parse(init.body as string) : undefined;
    const call = { method, path, body, headers: (init?.headers ?? {}) as Record<string, string> };
    calls.push(call);
    const route = routes[`${method} ${path}`];
    if (!route) return jsonResponse({ error: { code: 'NOT_FOUND', message: path } }, 404);
    return route(body, call, init);
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, scans: () => calls.filter((c) => c.path === 'scan') };
}

const ok = (data: unknown) => jsonResponse({ data });

function renderGate(network: GateNetwork = FAST) {
  return renderRoutes([{ path: 'gate', element: <GatePage network={network} /> }], ['/gate']);
}

const decision = () => screen.getByRole('status');

async function scan(user: ReturnType<typeof renderGate>['user'], code: string) {
  const input = await screen.findByRole('textbox', { name: /Badge code/ });
  await user.type(input, `${code}{Enter}`);
}

beforeEach(() => {
  applyLanguage('en');
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('gate screen: pairing', () => {
  it('pairs with the typed settings code, keeps its uid and token, and shows the configuration', async () => {
    const api = mockDeviceApi({
      'POST pair': () => ok({ token: 'device-token-1', device: { id: 7 } }),
      'GET config': () => ok(config()),
    });
    const { user } = renderGate();
    const code = await screen.findByRole('textbox', { name: /Pairing code/ });
    expect(code).toHaveFocus();
    const uid = window.localStorage.getItem(GATE_STORAGE.uid);
    expect(uid).toMatch(/^[0-9a-f-]{36}$/);

    await user.type(screen.getByRole('textbox', { name: /Gate name/ }), 'North gate');
    await user.type(code, 'ACCREDO-PAIR.1.secret{Enter}');

    expect(await screen.findByText('Main entrance')).toBeVisible();
    // template, mode, event (in the UI language) and zone
    expect(screen.getAllByRole('definition').map((d) => d.textContent)).toEqual([
      'Main entrance',
      'Entry',
      'Festival',
      'Backstage',
    ]);
    const pair = api.calls.find((c) => c.path === 'pair');
    expect(pair?.body).toMatchObject({ code: 'ACCREDO-PAIR.1.secret', uid, name: 'North gate' });
    expect(pair?.headers.authorization).toBeUndefined();
    expect(window.localStorage.getItem(GATE_STORAGE.token)).toBe('device-token-1');
    expect(api.calls.find((c) => c.path === 'config')?.headers.authorization).toBe('device-token-1');
    // the uid is generated once per browser
    expect(window.localStorage.getItem(GATE_STORAGE.uid)).toBe(uid);
  });

  it('explains a wrong pairing code and stays on the pairing page', async () => {
    mockDeviceApi({
      'POST pair': () => jsonResponse({ error: { code: 'DEVICE_PAIR_CODE_INVALID', message: 'x', details: {} } }, 400),
    });
    const { user } = renderGate();
    await user.type(await screen.findByRole('textbox', { name: /Pairing code/ }), 'WRONG{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent('The device pairing code is invalid');
    expect(window.localStorage.getItem(GATE_STORAGE.token)).toBeNull();
  });

  it('goes back to pairing when the server no longer knows the token', async () => {
    window.localStorage.setItem(GATE_STORAGE.token, 'revoked');
    mockDeviceApi({
      'GET config': () => jsonResponse({ error: { code: 'UNAUTHORIZED', message: 'x', details: {} } }, 401),
    });
    renderGate();
    expect(await screen.findByRole('textbox', { name: /Pairing code/ })).toBeVisible();
    expect(window.localStorage.getItem(GATE_STORAGE.token)).toBeNull();
  });

  it('unpairs after a confirm, and when the bcClear code is scanned', async () => {
    window.localStorage.setItem(GATE_STORAGE.token, 'tok');
    const api = mockDeviceApi({
      'GET config': () => ok(config()),
      'POST unpair': () => ok({ unpaired: true }),
    });
    const { user } = renderGate();
    await scan(user, 'ACCREDO-CLEAR.1.abcdef');
    expect(await screen.findByRole('textbox', { name: /Pairing code/ })).toBeVisible();
    expect(api.calls.find((c) => c.path === 'unpair')?.body).toEqual({ code: 'ACCREDO-CLEAR.1.abcdef' });
    expect(api.scans()).toHaveLength(0);
    expect(window.localStorage.getItem(GATE_STORAGE.token)).toBeNull();
  });

  it('unpairs with the button only after confirming, revoking the token on the server', async () => {
    window.localStorage.setItem(GATE_STORAGE.token, 'tok');
    const api = mockDeviceApi({
      'GET config': () => ok(config()),
      'POST unpair': () => ok({ unpaired: true }),
    });
    const { user } = renderGate();
    await user.click(await screen.findByRole('button', { name: 'Unpair' }));
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(window.localStorage.getItem(GATE_STORAGE.token)).toBe('tok');
    expect(api.calls.filter((c) => c.path === 'unpair')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Unpair' }));
    await user.click(screen.getByRole('button', { name: 'Yes, unpair' }));
    expect(await screen.findByRole('textbox', { name: /Pairing code/ })).toBeVisible();
    expect(window.localStorage.getItem(GATE_STORAGE.token)).toBeNull();
    // the gate's own token, no code: the server revokes it
    const unpair = api.calls.filter((c) => c.path === 'unpair');
    expect(unpair).toHaveLength(1);
    expect(unpair[0]).toMatchObject({ method: 'POST', body: {}, headers: { authorization: 'tok' } });
  });

  it('a token the server no longer knows is unpaired anyway', async () => {
    window.localStorage.setItem(GATE_STORAGE.token, 'tok');
    mockDeviceApi({
      'GET config': () => ok(config()),
      'POST unpair': () => jsonResponse({ error: { code: 'TOKEN_INVALID', message: 'gone' } }, 401),
    });
    const { user } = renderGate();
    await user.click(await screen.findByRole('button', { name: 'Unpair' }));
    await user.click(screen.getByRole('button', { name: 'Yes, unpair' }));
    expect(await screen.findByRole('textbox', { name: /Pairing code/ })).toBeVisible();
    expect(window.localStorage.getItem(GATE_STORAGE.token)).toBeNull();
  });

  it('stays paired when the server cannot revoke, until the operator forgets it here only', async () => {
    window.localStorage.setItem(GATE_STORAGE.token, 'tok');
    const api = mockDeviceApi({
      'GET config': () => ok(config()),
      'POST unpair': () => Promise.reject(new TypeError('Failed to fetch')),
    });
    const { user } = renderGate();
    await user.click(await screen.findByRole('button', { name: 'Unpair' }));
    await user.click(screen.getByRole('button', { name: 'Yes, unpair' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Unpair' });
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'The server did not revoke the pairing: Server not reachable.',
    );
    expect(window.localStorage.getItem(GATE_STORAGE.token)).toBe('tok');
    expect(screen.getByRole('heading', { name: 'Gate: North gate' })).toBeVisible();
    await user.click(within(dialog).getByRole('button', { name: 'Forget on this screen only' }));
    expect(await screen.findByRole('textbox', { name: /Pairing code/ })).toBeVisible();
    expect(window.localStorage.getItem(GATE_STORAGE.token)).toBeNull();
    expect(api.calls.filter((c) => c.path === 'unpair')).toHaveLength(1);
  });
});

describe('gate screen: scanning', () => {
  beforeEach(() => {
    window.localStorage.setItem(GATE_STORAGE.token, 'tok');
  });

  it('shows an allowed scan green with the person and the reason, and counts it', async () => {
    const api = mockDeviceApi({
      'GET config': () => ok(config()),
      'POST scan': (body) =>
        ok(
          answer({
            nonce: body.nonce,
            data: { used: 1, allowed: 1, daily: 1 },
            effects: [{ kind: 'entrance', type: 1 }] as never,
          }),
        ),
    });
    const { user } = renderGate();
    await screen.findByText('Main entrance');
    const input = screen.getByRole('textbox', { name: /Badge code/ });
    expect(input).toHaveFocus();
    await scan(user, 'JANA0001');

    await waitFor(() => expect(decision()).toHaveAttribute('data-state', 'allowed'));
    expect(decision()).toHaveTextContent('Allowed');
    expect(decision()).toHaveTextContent('Entry allowed (1 of 1 today)');
    expect(decision()).toHaveTextContent('Jana Nováková');
    expect(decision()).toHaveAttribute('aria-live', 'assertive');
    expect(screen.getByText(/Scans this session: 1 \(allowed 1, refused 0\)/)).toBeVisible();
    const [sent] = api.scans();
    expect(sent.headers.authorization).toBe('tok');
    expect(sent.body).toMatchObject({ code: 'JANA0001', direction: 'entry', amount: null });
    expect(sent.body.nonce).toMatch(/^[0-9a-f-]{36}$/);
    expect(Number.isNaN(Date.parse(sent.body.deviceTime))).toBe(false);
    // the field is emptied and keeps the focus for the next scan
    expect(input).toHaveValue('');
    expect(input).toHaveFocus();
  });

  it('shows refusals red with their explained reason, each scan with a fresh nonce', async () => {
    const answers = [
      answer({
        allowed: false,
        reason: 'DAILY_ENTRANCES_USED',
        data: { used: 1, allowed: 1, firstTime: '08:12' },
      }),
      answer({ allowed: false, reason: 'ZONE_NOT_ALLOWED', data: { zoneId: 4 }, person: { ...person, zoneIds: [] } }),
    ];
    const api = mockDeviceApi({
      'GET config': () => ok(config()),
      'POST scan': () => ok(answers.shift()),
    });
    const { user } = renderGate();
    await screen.findByText('Main entrance');

    await scan(user, 'JANA0001');
    await waitFor(() => expect(decision()).toHaveAttribute('data-state', 'refused'));
    expect(decision()).toHaveTextContent('Refused');
    expect(decision()).toHaveTextContent('Already entered 1 of 1 times today, first at 08:12');

    await scan(user, 'PETR0002');
    await waitFor(() => expect(decision()).toHaveTextContent('No access to the zone Backstage'));
    expect(screen.getByText(/Scans this session: 2 \(allowed 0, refused 2\)/)).toBeVisible();
    const nonces = api.scans().map((c) => c.body.nonce);
    expect(new Set(nonces).size).toBe(2);
  });

  it('explains the decision in the language chosen on the gate', async () => {
    mockDeviceApi({
      'GET config': () => ok(config()),
      'POST scan': () =>
        ok(
          answer({ allowed: false, reason: 'DAILY_ENTRANCES_USED', data: { used: 1, allowed: 1, firstTime: '08:12' } }),
        ),
    });
    const { user } = renderGate();
    await screen.findByText('Main entrance');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Language' }), 'de');
    await user.type(screen.getByRole('textbox', { name: /Ausweiscode/ }), 'JANA0001{Enter}');
    await waitFor(() => expect(decision()).toHaveTextContent('Abgelehnt'));
    expect(decision()).not.toHaveTextContent('Already entered');
    expect(decision()).toHaveTextContent('08:12');
  });

  it('switches the direction with F2 and with the toggle, and sends it with the scan', async () => {
    const api = mockDeviceApi({
      'GET config': () => ok(config()),
      'POST scan': (body) => ok(answer({ nonce: body.nonce, reason: 'OK_EXIT', direction: body.direction })),
    });
    const { user } = renderGate();
    await screen.findByText('Main entrance');
    expect(screen.getByRole('radio', { name: 'Entry' })).toBeChecked();

    await user.keyboard('{F2}');
    expect(screen.getByRole('radio', { name: 'Exit' })).toBeChecked();
    expect(window.localStorage.getItem(GATE_STORAGE.direction)).toBe('exit');
    await scan(user, 'JANA0001');
    await waitFor(() => expect(decision()).toHaveTextContent('Exit recorded'));
    expect(api.scans()[0].body.direction).toBe('exit');

    await user.click(screen.getByRole('radio', { name: 'Entry' }));
    expect(screen.getByRole('radio', { name: 'Entry' })).toBeChecked();
    // a scanner's keystrokes after a click on the toggle still land in the code field
    await user.keyboard('PETR0002{Enter}');
    await waitFor(() => expect(api.scans()).toHaveLength(2));
    expect(api.scans()[1].body).toMatchObject({ code: 'PETR0002', direction: 'entry' });
    await user.click(screen.getByRole('switch', { name: 'Scan with the camera' }));
    await user.click(screen.getByRole('switch', { name: 'Scan with the camera' }));
    await user.keyboard('EVA00003{Enter}');
    await waitFor(() => expect(api.scans()).toHaveLength(3));
    expect(api.scans()[2].body.code).toBe('EVA00003');
  });

  it('sends the amount in mode 2', async () => {
    const api = mockDeviceApi({
      'GET config': () =>
        ok(config({ screen: { configured: true, mode: 2, directions: ['entry', 'exit'], askAmount: true } })),
      'POST scan': () =>
        ok(
          answer({
            data: { amount: 50, balance: 150 },
            effects: [{ kind: 'credit', amount: 50 }] as never,
            person: { ...person, credit: 150 },
          }),
        ),
    });
    const { user } = renderGate();
    const amount = await screen.findByRole('textbox', { name: 'Amount (CZK)' });
    await user.type(amount, '50');
    await scan(user, 'JANA0001');
    await waitFor(() => expect(decision()).toHaveTextContent('Charged 50 CZK, balance 150 CZK'));
    expect(api.scans()[0].body.amount).toBe(50);
  });

  it('retries a failed request with the same nonce and shows the answer', async () => {
    let attempts = 0;
    const api = mockDeviceApi({
      'GET config': () => ok(config()),
      'POST scan': (body) => {
        attempts++;
        if (attempts === 1) throw new TypeError('Failed to fetch');
        if (attempts === 2) return jsonResponse({ error: { code: 'INTERNAL_ERROR', message: 'x', details: {} } }, 503);
        return ok(answer({ nonce: body.nonce }));
      },
    });
    const { user } = renderGate();
    await screen.findByText('Main entrance');
    await scan(user, 'JANA0001');
    await waitFor(() => expect(decision()).toHaveAttribute('data-state', 'allowed'));
    const nonces = api.scans().map((c) => c.body.nonce);
    expect(nonces).toHaveLength(3);
    expect(new Set(nonces).size).toBe(1);
    expect(screen.getByText(/Scans this session: 1 /)).toBeVisible();
  });

  it('retries a request that times out, then says the server is not reachable', async () => {
    const api = mockDeviceApi({
      'GET config': () => ok(config()),
      // never answers: only the gate's own timeout ends each attempt
      'POST scan': (_body, _call, init) =>
        new Promise<Response>((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    });
    const { user } = renderGate({ timeoutMs: 5, attempts: 3, retryDelayMs: 0 });
    await screen.findByText('Main entrance');
    await scan(user, 'JANA0001');
    await waitFor(() => expect(decision()).toHaveAttribute('data-state', 'unreachable'));
    expect(decision()).toHaveTextContent('Server not reachable');
    expect(decision()).toHaveTextContent('JANA0001');
    const nonces = api.scans().map((c) => c.body.nonce);
    expect(nonces).toHaveLength(3);
    expect(new Set(nonces).size).toBe(1);
    expect(screen.getByText(/Scans this session: 0 /)).toBeVisible();
  });

  it('does not retry a scan the server refused as malformed', async () => {
    const api = mockDeviceApi({
      'GET config': () => ok(config()),
      'POST scan': () =>
        jsonResponse({ error: { code: 'VALIDATION_ERROR', message: 'Invalid code', details: { fields: [] } } }, 400),
    });
    const { user } = renderGate();
    await screen.findByText('Main entrance');
    await scan(user, 'BAD');
    await waitFor(() => expect(decision()).toHaveAttribute('data-state', 'failed'));
    expect(api.scans()).toHaveLength(1);
  });

  it('names the user field of a refused custom date rule', async () => {
    mockDeviceApi({
      'GET config': () =>
        ok(
          config({
            fields: [{ id: 41, name: 'valid_from', label: { cs: 'Platné od', sk: '', en: 'Valid from', de: '' } }],
          }),
        ),
      'POST scan': () => ok(answer({ allowed: false, reason: 'CUSTOM_DATE_INVALID', data: { fieldId: 41 } })),
    });
    const { user } = renderGate();
    await screen.findByText('Main entrance');
    await scan(user, 'JANA0001');
    await waitFor(() => expect(decision()).toHaveTextContent('The date in the field Valid from is missing or invalid'));
  });

  it('reads its configuration again when a scan shows the admin gave it a template', async () => {
    const unconfigured = config({
      template: null,
      action: null,
      zone: null,
      screen: { configured: false, mode: null, directions: ['entry', 'exit'], askAmount: false },
    });
    const configs = [unconfigured, config()];
    const api = mockDeviceApi({
      'GET config': () => ok(configs.length > 1 ? configs.shift() : configs[0]),
      'POST scan': (body) => ok(answer({ nonce: body.nonce, data: { used: 1, allowed: 1, daily: 1 } })),
    });
    const { user } = renderGate();
    expect(await screen.findByText(/no rule template yet/)).toBeVisible();
    await scan(user, 'JANA0001');
    await waitFor(() => expect(decision()).toHaveAttribute('data-state', 'allowed'));
    expect(await screen.findByText('Main entrance')).toBeVisible();
    expect(screen.queryByText(/no rule template yet/)).not.toBeInTheDocument();
    expect(api.calls.filter((c) => c.path === 'config')).toHaveLength(2);
  });

  it('asks for its configuration every 10 s while it has no template, every minute once it has one', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const unconfigured = config({
        template: null,
        action: null,
        zone: null,
        screen: { configured: false, mode: null, directions: ['entry', 'exit'], askAmount: false },
      });
      const configs = [unconfigured, config()];
      const api = mockDeviceApi({ 'GET config': () => ok(configs.length > 1 ? configs.shift() : configs[0]) });
      renderGate();
      expect(await screen.findByText(/no rule template yet/)).toBeVisible();
      await act(() => vi.advanceTimersByTimeAsync(10_000));
      expect(await screen.findByText('Main entrance')).toBeVisible();
      await act(() => vi.advanceTimersByTimeAsync(30_000));
      expect(api.calls.filter((c) => c.path === 'config')).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a scan refused for a revoked token goes back to pairing and says why', async () => {
    mockDeviceApi({
      'GET config': () => ok(config()),
      'POST scan': () => jsonResponse({ error: { code: 'TOKEN_INVALID', message: 'x', details: {} } }, 401),
    });
    const { user } = renderGate();
    await screen.findByText('Main entrance');
    await scan(user, 'JANA0001');
    expect(await screen.findByRole('textbox', { name: /Pairing code/ })).toBeVisible();
    expect(screen.getByRole('alert')).toHaveTextContent(
      'This gate is no longer paired: the server revoked its pairing (a new device key, the device deleted or unpaired). The last code was not checked.',
    );
    expect(window.localStorage.getItem(GATE_STORAGE.token)).toBeNull();
  });

  it('says when the gate has no rule template yet', async () => {
    mockDeviceApi({
      'GET config': () =>
        ok(
          config({
            template: null,
            action: null,
            zone: null,
            screen: { configured: false, mode: null, directions: ['entry', 'exit'], askAmount: false },
          }),
        ),
    });
    renderGate();
    expect(await screen.findByText(/no rule template yet/)).toBeVisible();
    // the config line still names the gate
    expect(within(screen.getByRole('heading', { level: 1 })).getByText(/North gate/)).toBeVisible();
    await act(async () => {});
  });
});
