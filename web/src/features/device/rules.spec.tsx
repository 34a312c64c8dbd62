import { localDateTime } from '@accredo/access';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '../../api/storage';
import { bodyOf, mockAdminApi } from '../../testing/mock-api';
import { jsonResponse, shownDay, t } from '../../testing/render';
import { renderWithSession } from '../../testing/session';
import { deviceRoutes } from './routes';

const name = (cs: string) => ({ cs, sk: '', en: '', de: '' });
const actions = [
  { id: 1, name: name('Festival') },
  { id: 2, name: name('Konference') },
];
const groups = [
  { id: 11, name: 'Press', actionId: 1 },
  { id: 12, name: 'Staff', actionId: 1 },
  { id: 21, name: 'Speakers', actionId: 2 },
];
const zones = [{ id: 31, name: 'Hall', onAccreditation: 'H', actionId: 1, groups: [] }];
const fields = [
  { id: 41, name: 'Valid from', customFieldType: { id: 1, code: 'TEXT' }, options: [] },
  { id: 42, name: 'Consent', customFieldType: { id: 7, code: 'BOOL' }, options: [] },
];
const saved = (body: Record<string, unknown>) => ({ id: 7, createdAt: '', updatedAt: '', ...body });
const base = {
  'GET action': actions,
  'GET groups': groups,
  'GET zone': zones,
  'GET custom-field': fields,
};

const label = (key: string) => new RegExp(`^${t(key)}`);
const input = (key: string, root: HTMLElement = document.body) =>
  within(root).getByLabelText(label(key), { selector: 'input:not([type="hidden"])' });

beforeEach(() => window.localStorage.setItem(STORAGE_KEYS.adminToken, 'tok'));
afterEach(() => vi.unstubAllGlobals());

type User = ReturnType<typeof renderWithSession>['user'];
async function choose(user: User, field: HTMLElement, option: string) {
  await user.click(field);
  const listbox = await screen.findByRole('listbox');
  await user.click(within(listbox).getByRole('option', { name: option }));
}

describe('rule template form', () => {
  it('lists templates by action with their mode', async () => {
    mockAdminApi({
      ...base,
      'GET device-template': [
        saved({ id: 1, name: 'Main gate', actionId: 1, zoneId: 31, data: { mode: 1, rules: [{}], globalRule: null } }),
        saved({ id: 2, name: 'Talks', actionId: 2, zoneId: null, data: { mode: 3, rules: [], globalRule: null } }),
      ],
    });
    renderWithSession(deviceRoutes, '/device/rules?action=1');
    const row = await screen.findByRole('row', { name: /Main gate/ });
    expect(within(row).getByText(t('device.rules.modes.1'))).toBeInTheDocument();
    expect(await within(row).findByText('Hall')).toBeInTheDocument();
    expect(screen.queryByRole('row', { name: /Talks/ })).not.toBeInTheDocument();
  });

  it('needs a group in each mode-1 rule, saves empty entrances as 0 and leaves out a disabled global rule', async () => {
    const api = mockAdminApi({ ...base, 'POST device-template': saved });
    const { user, router } = renderWithSession(deviceRoutes, '/device/rules/create?actionId=1');
    await user.type(await screen.findByLabelText(label('basics.name')), 'Main gate');
    await user.click(screen.getByRole('button', { name: t('device.rules.addRule') }));
    const rule = screen.getByRole('group', { name: t('device.rules.ruleNumber', { n: 1 }) });
    await user.click(screen.getByRole('button', { name: t('basics.save') }));
    // the engine's schema: a mode-1 rule without a group is refused on the field
    expect(await within(rule).findByText(t('basics.requireField'))).toBeInTheDocument();
    expect(api.calls.some((c) => c.method === 'POST' && c.path === 'device-template')).toBe(false);

    // only the chosen action's groups are offered
    await user.click(input('device.rules.group', rule));
    const listbox = await screen.findByRole('listbox');
    expect(
      within(listbox)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Press', 'Staff']);
    await user.click(within(listbox).getByRole('option', { name: 'Press' }));
    await user.type(input('device.rules.level', rule), '2');
    await user.click(screen.getByRole('button', { name: t('basics.save') }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/device/rules/detail/7'));
    expect(bodyOf(api.calls, 'POST', 'device-template')).toEqual({
      name: 'Main gate',
      actionId: 1,
      zoneId: null,
      data: {
        mode: 1,
        rules: [{ groupId: 11, entrances: 0, daily: false, levelId: 2, info: false, customRule: [] }],
        globalRule: null,
      },
    });
  });

  it('sends an enabled mode-1 global rule, and a custom date rule needs its user field', async () => {
    const api = mockAdminApi({ ...base, 'POST device-template': saved });
    const { user } = renderWithSession(deviceRoutes, '/device/rules/create?actionId=1');
    await user.type(await screen.findByLabelText(label('basics.name')), 'Day passes');
    await user.click(screen.getByRole('button', { name: t('device.rules.addRule') }));
    const rule = screen.getByRole('group', { name: t('device.rules.ruleNumber', { n: 1 }) });
    await choose(user, input('device.rules.group', rule), 'Staff');
    await user.type(input('device.rules.entrances', rule), '3');
    await user.click(within(rule).getByRole('button', { name: t('device.rules.addCustomRule') }));
    await user.click(screen.getByRole('switch', { name: t('device.rules.enabled') }));
    await user.type(
      screen.getByLabelText(label('device.rules.entrances'), { selector: 'input[name="globalRule.entrances"]' }),
      '1',
    );
    await user.click(screen.getByRole('button', { name: t('basics.save') }));
    expect(await within(rule).findByText(t('basics.requireField'))).toBeInTheDocument();
    expect(api.calls.some((c) => c.method === 'POST' && c.path === 'device-template')).toBe(false);

    // the form says which format the field must hold (spec §3 has no date type)
    expect(within(rule).getByText(t('device.rules.customDateFormat'))).toBeInTheDocument();
    // only text fields (dates are kept as text) are offered
    await user.click(input('device.rules.customField', rule));
    const listbox = await screen.findByRole('listbox');
    expect(
      within(listbox)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Valid from']);
    await user.click(within(listbox).getByRole('option', { name: 'Valid from' }));
    await user.click(screen.getByRole('button', { name: t('basics.save') }));
    await waitFor(() => expect(bodyOf(api.calls, 'POST', 'device-template')).toBeDefined());
    expect(bodyOf(api.calls, 'POST', 'device-template')?.data).toEqual({
      mode: 1,
      rules: [
        {
          groupId: 12,
          entrances: 3,
          daily: false,
          levelId: 0,
          info: false,
          customRule: [{ customField: 41, type: 'date', values: { system: 'today', check: 'gte', entrances: 0 } }],
        },
      ],
      globalRule: { enabled: true, entrances: 1, daily: false, levelId: 0, info: false },
    });
  });

  it('says how to get a user field for a date rule when there is none', async () => {
    mockAdminApi({ ...base, 'GET custom-field': [fields[1]] });
    const { user } = renderWithSession(deviceRoutes, '/device/rules/create?actionId=1');
    await user.click(await screen.findByRole('button', { name: t('device.rules.addRule') }));
    const rule = screen.getByRole('group', { name: t('device.rules.ruleNumber', { n: 1 }) });
    await user.click(within(rule).getByRole('button', { name: t('device.rules.addCustomRule') }));
    expect(within(rule).getByText(t('device.rules.noDateFields'))).toBeInTheDocument();
  });

  it('mode 3 forces a global rule holding only info', async () => {
    const api = mockAdminApi({ ...base, 'POST device-template': saved });
    const { user } = renderWithSession(deviceRoutes, '/device/rules/create?actionId=1');
    await user.type(await screen.findByLabelText(label('basics.name')), 'Hall check');
    await choose(user, input('device.rules.zone'), 'Hall');
    await choose(user, input('device.rules.mode'), `3 – ${t('device.rules.modes.3')}`);
    expect(screen.getByText(t('device.rules.zoneCheckNote'))).toBeInTheDocument();
    expect(screen.queryByRole('switch', { name: t('device.rules.enabled') })).not.toBeInTheDocument();
    await user.click(screen.getByRole('switch', { name: t('device.rules.info') }));
    await user.click(screen.getByRole('button', { name: t('basics.save') }));
    await waitFor(() => expect(bodyOf(api.calls, 'POST', 'device-template')).toBeDefined());
    expect(bodyOf(api.calls, 'POST', 'device-template')).toEqual({
      name: 'Hall check',
      actionId: 1,
      zoneId: 31,
      data: { mode: 3, rules: [], globalRule: { enabled: true, entrances: 0, daily: false, levelId: 0, info: true } },
    });
  });

  it('puts the server’s rule errors on their fields', async () => {
    mockAdminApi({
      ...base,
      'GET device-template/7': saved({
        name: 'Main gate',
        actionId: 1,
        zoneId: null,
        data: {
          mode: 1,
          rules: [{ groupId: 11, entrances: 1, daily: false, levelId: 0, info: false, customRule: [] }],
          globalRule: null,
        },
      }),
      'PUT device-template/7': jsonResponse(
        {
          error: {
            code: 'VALIDATION_ERROR',
            message: 'x',
            details: { fields: [{ path: 'data.rules.0.groupId', key: 'basics.invalidValue' }] },
          },
        },
        400,
      ),
    });
    const { user } = renderWithSession(deviceRoutes, '/device/rules/detail/7');
    const rule = await screen.findByRole('group', { name: t('device.rules.ruleNumber', { n: 1 }) });
    await user.type(input('device.rules.entrances', rule), '0');
    await user.click(screen.getByRole('button', { name: t('basics.save') }));
    expect(await within(rule).findByText(t('basics.invalidValue'))).toBeInTheDocument();
  });

  it('simulates the unsaved form for everyone and for one person', async () => {
    const api = mockAdminApi({
      ...base,
      'POST user/filter': {
        paged: { data: [{ id: 501, firstname: 'Ada', lastname: 'Lovelace', customId: 3 }], max: 1, customField: [] },
      },
      'POST device-template/simulate': {
        at: '2026-11-25T09:00:00.000Z',
        total: 3,
        allowed: 1,
        refused: 2,
        reasons: [
          { reason: 'OK', allowed: true, count: 1, message: 'Entry allowed' },
          { reason: 'NO_GROUP', allowed: false, count: 2, message: 'The accreditation has no group' },
        ],
      },
      'POST device/simulate-person': {
        at: '2026-11-25T09:00:00.000Z',
        person: { id: 501, firstname: 'Ada', lastname: 'Lovelace', actionId: 1 },
        rows: [
          {
            deviceId: null,
            deviceName: null,
            templateId: null,
            templateName: null,
            zoneId: null,
            allowed: true,
            reason: 'OK',
            message: 'Entry allowed',
          },
          {
            deviceId: 9,
            deviceName: 'North gate',
            templateId: 4,
            templateName: 'Gate rules',
            zoneId: null,
            allowed: false,
            reason: 'ENTRANCES_USED',
            message: 'All entries used',
          },
        ],
      },
    });
    const { user } = renderWithSession(deviceRoutes, '/device/rules/create?actionId=1');
    await user.type(await screen.findByLabelText(label('basics.name')), 'Draft');
    await user.click(screen.getByRole('button', { name: t('device.rules.addRule') }));
    const rule = screen.getByRole('group', { name: t('device.rules.ruleNumber', { n: 1 }) });
    await choose(user, input('device.rules.group', rule), 'Press');
    // now by default: no moment is sent, the server decides at its own clock
    const day = screen.getByLabelText(t('device.sim.day'));
    expect(day).toBeDisabled();
    await user.click(screen.getByRole('button', { name: t('device.sim.runCounts') }));
    await waitFor(() => expect(bodyOf(api.calls, 'POST', 'device-template/simulate')).toBeDefined());
    expect(bodyOf(api.calls, 'POST', 'device-template/simulate')).toMatchObject({ at: null });
    // the moment the server decided at, said back
    expect(await screen.findByText(new RegExp(`^${t('device.sim.at', { at: '' }).trim()} \\S`))).toBeInTheDocument();
    api.calls.length = 0;

    // a chosen moment starts from now on the subject's clock (Europe/Prague), whatever this computer's zone
    const before = localDateTime(Date.now(), 'Europe/Prague');
    await user.click(screen.getByRole('switch', { name: t('device.sim.now') }));
    const after = localDateTime(Date.now(), 'Europe/Prague');
    expect(day).toBeEnabled();
    expect([before.day, after.day].map(shownDay)).toContain((day as HTMLInputElement).value);
    expect([before.time, after.time]).toContain(
      (screen.getByLabelText(t('device.sim.time')) as HTMLInputElement).value,
    );
    await user.clear(day);
    await user.type(day, '2026-11-25');
    const time = screen.getByLabelText(t('device.sim.time'));
    await user.clear(time);
    await user.type(time, '10:00');
    await user.click(screen.getByRole('button', { name: t('device.sim.runCounts') }));
    const counts = await screen.findByTestId('sim-counts');
    expect(within(counts).getByText(t('device.sim.allowedCount', { count: 1 }))).toBeInTheDocument();
    expect(within(counts).getByText('The accreditation has no group')).toBeInTheDocument();
    expect(bodyOf(api.calls, 'POST', 'device-template/simulate')).toEqual({
      templateId: null,
      actionId: 1,
      zoneId: null,
      at: '2026-11-25T10:00',
      data: {
        mode: 1,
        rules: [{ groupId: 11, entrances: 0, daily: false, levelId: 0, info: false, customRule: [] }],
        globalRule: null,
      },
    });

    await choose(user, input('device.sim.person'), 'Ada Lovelace (3)');
    await user.click(screen.getByRole('button', { name: t('device.sim.runPerson') }));
    const person = await screen.findByTestId('sim-person');
    expect(within(person).getByText(t('device.sim.thisForm'))).toBeInTheDocument();
    expect(
      within(within(person).getByRole('row', { name: /North gate/ })).getByText('All entries used'),
    ).toBeInTheDocument();
    expect(bodyOf(api.calls, 'POST', 'device/simulate-person')).toMatchObject({
      accreditationId: 501,
      at: '2026-11-25T10:00',
    });
    // nothing was saved
    expect(api.calls.some((c) => c.path === 'device-template' && c.method === 'POST')).toBe(false);
  });
});
