import { buildRights, type WebChannelListItem } from '@accredo/domain';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, t } from '../../testing/render';
import { mockAdminApi, renderWithSession, testSession } from '../../testing/session';
import { webChannelRoutes } from './routes';
import { bodyOf } from '../../testing/mock-api';
import { webChannel } from '../../testing/fixtures';

const text = (cs: string) => ({ cs, sk: '', en: '', de: '' });

const actions = [
  { id: 1, name: text('Festival') },
  { id: 2, name: text('Konference') },
];

const festival = {
  id: 1,
  name: text('Festival'),
  dateFrom: '2026-05-01T08:00',
  dateTo: '2026-05-02T23:59',
  multiDay: true,
  days: [
    { id: '2026-05-01', name: text('Pátek'), onAccreditation: '1.5.' },
    { id: '2026-05-02', name: text('Sobota'), onAccreditation: '2.5.' },
  ],
  customField: [
    { id: 3, name: 'Company', customFieldType: 1, isMandatory: true, notShow: false, defaultValue: '' },
    { id: 4, name: 'Internal', customFieldType: 1, isMandatory: false, notShow: true, defaultValue: 'x' },
  ],
  extension: [],
};

function listItem(id: number, actionId: number, patch: Partial<WebChannelListItem> = {}): WebChannelListItem {
  return {
    id,
    name: `Channel ${id}`,
    channelKey: `key${id}`,
    link: `/app/online/key${id}`,
    actionId,
    active: true,
    dateFrom: null,
    dateTo: null,
    state: 'open',
    withAuthorization: false,
    authorizationType: null,
    ...patch,
  };
}

const channel = webChannel;

const common = {
  'GET action': actions,
  'GET action/1': festival,
  'GET groups': [
    { id: 5, name: 'Press group', actionId: 1 },
    { id: 6, name: 'Other action group', actionId: 2 },
  ],
  'GET mail-template': [
    { id: 11, name: 'Welcome', type: 1 },
    { id: 12, name: 'Newsletter', type: 2 },
  ],
};

const saveButton = () => screen.getByRole('button', { name: t('basics.save') });
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('web channel list', () => {
  it('tabs the channels by action and shows name, key, active, dates and authorization', async () => {
    mockAdminApi({
      ...common,
      'GET web-channel/3': channel({ id: 3, name: 'Speakers', actionId: 2 }),
      'GET web-channel': [
        listItem(1, 1, {
          name: 'Public',
          dateFrom: '2026-04-01T08:00',
          dateTo: '2026-04-30T23:59',
          withAuthorization: true,
          authorizationType: 1,
        }),
        listItem(2, 1, { name: 'Codes', withAuthorization: true, authorizationType: 3, active: false }),
        listItem(3, 2, { name: 'Speakers' }),
      ],
    });
    const { user, router } = renderWithSession(webChannelRoutes, '/web-channel');
    const row = await screen.findByRole('row', { name: /Public/ });
    expect(within(row).getByText('key1')).toBeInTheDocument();
    expect(within(row).getByText('2026-04-01 08:00')).toBeInTheDocument();
    expect(within(row).getByText(t('webChannel.authPassword'))).toBeInTheDocument();
    expect(within(row).getByRole('link', { name: `${t('webChannel.openLink')}: key1` })).toHaveAttribute(
      'href',
      '/app/online/key1',
    );
    const codes = screen.getByRole('row', { name: /Codes/ });
    expect(within(codes).getByText(t('webChannel.authCode'))).toBeInTheDocument();
    expect(within(codes).getByText(t('basics.no'))).toBeInTheDocument();
    expect(screen.queryByRole('row', { name: /Speakers/ })).not.toBeInTheDocument();

    await user.click(screen.getByRole('tab', { name: /Konference/ }));
    const speakers = await screen.findByRole('row', { name: /Speakers/ });
    // no dates, no authorization
    expect(within(speakers).getAllByText(t('basics.dash'))).toHaveLength(3);
    expect(screen.getByRole('link', { name: t('basics.add') })).toHaveAttribute(
      'href',
      '/web-channel/create?actionId=2',
    );
    await user.dblClick(speakers);
    await waitFor(() => expect(router.state.location.pathname).toBe('/web-channel/detail/3'));
  });

  it('offers the add button only with the create right', async () => {
    mockAdminApi({ ...common, 'GET web-channel': [listItem(1, 1)] });
    const rights = buildRights(([page, action]) => page === 'webChannel' && action === 'get');
    renderWithSession(webChannelRoutes, '/web-channel', { ...testSession(), superuser: false, rights });
    expect(await screen.findByRole('row', { name: /Channel 1/ })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: t('basics.add') })).not.toBeInTheDocument();
  });
});

describe('web channel detail', { timeout: 30_000 }, () => {
  it('creates a channel: info, range order messages, user fields and groups of the action', async () => {
    const { calls } = mockAdminApi({
      ...common,
      'POST web-channel': channel({ id: 9 }),
      'GET web-channel/9': channel(),
    });
    const { user, router } = renderWithSession(webChannelRoutes, '/web-channel/create?actionId=1');

    await user.type(await screen.findByRole('textbox', { name: t('basics.name') }), 'Press');
    fireEvent.change(screen.getByLabelText(t('webChannel.dateFrom')), { target: { value: '2026-05-02T10:00' } });
    fireEvent.change(screen.getByLabelText(t('webChannel.dateTo')), { target: { value: '2026-05-01T10:00' } });
    await user.click(saveButton());
    expect(await screen.findByText(t('webChannelRules.dateFromAfterTo'))).toBeInTheDocument();
    expect(screen.getByText(t('webChannelRules.dateToBeforeFrom'))).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    fireEvent.change(screen.getByLabelText(t('webChannel.dateTo')), { target: { value: '2026-05-03T10:00' } });

    // the groups offered are those of the chosen action
    await user.click(screen.getByRole('switch', { name: t('webChannel.viewGroups') }));
    await user.click(screen.getByLabelText(t('webChannel.groupsOffered'), { selector: 'input:not([type="hidden"])' }));
    const groups = await screen.findByRole('listbox');
    expect(
      within(groups)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Press group']);
    await user.click(within(groups).getByRole('option', { name: 'Press group' }));
    await user.keyboard('{Escape}');
    // a multi-day action: its days; the days ticked are assigned
    await user.click(screen.getByRole('checkbox', { name: 'Sobota' }));
    // only the user fields the action shows on the web are offered
    await user.click(screen.getByLabelText(t('webChannel.customField'), { selector: 'input:not([type="hidden"])' }));
    const offered = await screen.findByRole('listbox');
    expect(
      within(offered)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Company']);
    await user.keyboard('{Escape}');
    await user.click(screen.getByRole('radio', { name: t('webChannel.afterAddNothing') }));

    await user.click(saveButton());
    await waitFor(() => expect(router.state.location.pathname).toBe('/web-channel/detail/9'));
    expect(bodyOf(calls, 'POST', 'web-channel')).toMatchObject({
      name: 'Press',
      actionId: 1,
      dateFrom: '2026-05-02T10:00',
      dateTo: '2026-05-03T10:00',
      viewGroups: true,
      groupsId: [5],
      defaultDays: ['2026-05-02'],
      afterAdd: { action: 2 },
      withAuthorization: false,
      byPassword: false,
      byCode: false,
    });
  });

  it('switches the authorization type: a password, login users, external codes', async () => {
    const { calls } = mockAdminApi({
      ...common,
      'GET web-channel/9': channel(),
      'PUT web-channel/9': channel({ withAuthorization: true, authorizationType: 2, byPassword: false }),
    });
    const { user } = renderWithSession(webChannelRoutes, '/web-channel/detail/9');
    expect(await screen.findByDisplayValue('Press')).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: t('webChannel.tab.authorization') }));
    expect(screen.queryByRole('radio', { name: t('webChannel.authPassword') })).not.toBeInTheDocument();

    await user.click(screen.getByRole('switch', { name: new RegExp(t('webChannel.withAuthorization')) }));
    // on: a password by default, required while none is stored
    expect(screen.getByRole('radio', { name: t('webChannel.authPassword') })).toBeChecked();
    await user.click(saveButton());
    expect(await screen.findByText(t('basics.requireField'))).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);

    // login users: the table, a user added, a duplicate login refused
    await user.click(screen.getByRole('radio', { name: t('webChannel.authLogin') }));
    expect(
      screen.queryByLabelText(t('webChannel.password'), { exact: false, selector: 'input' }),
    ).not.toBeInTheDocument();
    expect(screen.getByText(t('webChannel.noUsers'))).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: t('webChannel.addUser') }));
    let dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText(t('webChannel.userLogin'), { exact: false }), 'Reporter');
    await user.click(within(dialog).getByRole('button', { name: t('webChannel.apply') }));
    expect(await within(dialog).findByText(t('basics.requireField'))).toBeInTheDocument();
    await user.type(
      within(dialog).getByLabelText(t('webChannel.userPassword'), { exact: false, selector: 'input' }),
      'secret-1',
    );
    await user.click(within(dialog).getByRole('button', { name: t('webChannel.apply') }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByRole('row', { name: /reporter/ })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: t('webChannel.addUser') }));
    dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText(t('webChannel.userLogin'), { exact: false }), ' REPORTER ');
    await user.type(
      within(dialog).getByLabelText(t('webChannel.userPassword'), { exact: false, selector: 'input' }),
      'x',
    );
    await user.click(within(dialog).getByRole('button', { name: t('webChannel.apply') }));
    expect(await within(dialog).findByText(t('webChannelRules.userLoginExists'))).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: t('basics.cancel') }));

    // external codes: their own section
    await user.click(screen.getByRole('radio', { name: t('webChannel.authCode') }));
    expect(screen.getByRole('textbox', { name: new RegExp(t('webChannel.numberUseExtCode')) })).toBeInTheDocument();
    expect(screen.queryByText(t('webChannel.noUsers'))).not.toBeInTheDocument();
    expect(screen.getByText(t('webChannel.noCodes'))).toBeInTheDocument();

    await user.click(screen.getByRole('radio', { name: t('webChannel.authLogin') }));
    await user.click(saveButton());
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(bodyOf(calls, 'PUT', 'web-channel/9')).toMatchObject({
      withAuthorization: true,
      authorizationType: 2,
      byPassword: false,
      byCode: false,
      password: null,
      users: [{ id: null, login: 'reporter', password: 'secret-1', active: true }],
    });
  });

  it('keeps a stored password when left blank', async () => {
    const stored = channel({ withAuthorization: true, authorizationType: 1, byPassword: true, hasPassword: true });
    const { calls } = mockAdminApi({ ...common, 'GET web-channel/9': stored, 'PUT web-channel/9': stored });
    const { user } = renderWithSession(webChannelRoutes, '/web-channel/detail/9');
    expect(await screen.findByDisplayValue('Press')).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: t('webChannel.tab.authorization') }));
    expect(screen.getByText(t('webChannel.passwordKeepHint'))).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: t('webChannel.authorizationText') }), 'Ask us');
    await user.click(saveButton());
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(bodyOf(calls, 'PUT', 'web-channel/9')).toMatchObject({
      authorizationType: 1,
      byPassword: true,
      password: null,
    });
  });

  it('keeps used codes, removes unused ones, and merges a CSV import with its warnings', async () => {
    const stored = channel({
      withAuthorization: true,
      authorizationType: 3,
      byCode: true,
      numberUseExtCode: 2,
      externalCode: [
        {
          id: 1,
          code: 'USED1',
          numberOfUse: 1,
          used: 1,
          log: [{ date: '2026-04-01T10:00:00.000Z', firstname: 'Jana', lastname: 'Nová', email: 'jana@example.com' }],
        },
        { id: 2, code: 'FREE2', numberOfUse: 0, used: 0, log: [] },
      ],
    });
    const { calls } = mockAdminApi({
      ...common,
      'GET web-channel/9': stored,
      'PUT web-channel/9': stored,
      'POST web-channel/external-code/import': {
        codes: [
          { code: 'NEW3', numberOfUse: 2 },
          { code: 'NEW4', numberOfUse: 5 },
        ],
        skipped: [
          { line: 3, text: 'used1', reason: 'duplicate' },
          { line: 5, text: 'X;-1', reason: 'badNumber' },
        ],
      },
    });
    const { user } = renderWithSession(webChannelRoutes, '/web-channel/detail/9');
    expect(await screen.findByDisplayValue('Press')).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: t('webChannel.tab.authorization') }));

    const used = screen.getByRole('row', { name: /USED1/ });
    expect(within(used).getByRole('button', { name: `${t('basics.remove')}: USED1` })).toBeDisabled();
    await user.hover(
      within(used).getByRole('button', { name: `${t('basics.remove')}: USED1` }).parentElement as HTMLElement,
    );
    expect(await screen.findByText(t('webChannel.usedCodeCannotRemove'))).toBeInTheDocument();
    // the usage log of the used code
    await user.click(within(used).getByRole('button', { name: `${t('webChannel.usageLog')}: USED1` }));
    const log = await screen.findByRole('dialog');
    expect(within(log).getByRole('cell', { name: 'jana@example.com' })).toBeInTheDocument();
    await user.keyboard('{Escape}');

    const free = screen.getByRole('row', { name: /FREE2/ });
    expect(within(free).getByText(t('webChannel.unlimited'))).toBeInTheDocument();
    await user.click(within(free).getByRole('button', { name: `${t('basics.remove')}: FREE2` }));
    expect(screen.queryByRole('row', { name: /FREE2/ })).not.toBeInTheDocument();

    // the CSV: a wrong file type is refused before sending
    const input = document.querySelector('input[type="file"][accept=".csv,text/csv"]') as HTMLInputElement;
    // (the picker offers .csv only; a file dropped past it is still checked)
    await userEvent.setup({ applyAccept: false }).upload(input, new File(['x'], 'codes.txt', { type: 'text/plain' }));
    expect(await screen.findByText(t('webChannelRules.chooseCsvFile'))).toBeInTheDocument();
    await user.upload(input, new File(['new3\nNEW4;5\nused1\n\nX;-1\n'], 'codes.csv', { type: 'text/csv' }));
    const warning = await screen.findByText(t('webChannel.linesNotImported', { count: 2 }));
    const alert = warning.closest('[role="alert"]') ?? (warning.parentElement?.parentElement as HTMLElement);
    expect(
      within(alert as HTMLElement).getByText(
        t('webChannel.skippedLine', { line: 3, text: 'used1', reason: t('webChannel.skipReason.duplicate') }),
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('row', { name: /NEW3/ })).toBeInTheDocument();
    expect(screen.getByRole('row', { name: /NEW4/ })).toBeInTheDocument();
    const sent = bodyOf(calls, 'POST', 'web-channel/external-code/import');
    expect(sent).toMatchObject({ numberUseExtCode: 2, existing: ['USED1'] });
    expect(String(sent?.dataFile)).toMatch(/^data:text\/csv;base64,/);

    await user.click(saveButton());
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(bodyOf(calls, 'PUT', 'web-channel/9')?.externalCode).toEqual([
      { id: 1, code: 'USED1', numberOfUse: 1 },
      { id: null, code: 'NEW3', numberOfUse: 2 },
      { id: null, code: 'NEW4', numberOfUse: 5 },
    ]);
  });

  it('shows a channel read-only to a user who may look but not change; usage logs and export stay open', async () => {
    const stored = channel({
      withAuthorization: true,
      authorizationType: 3,
      byCode: true,
      externalCode: [
        {
          id: 1,
          code: 'USED1',
          numberOfUse: 1,
          used: 1,
          log: [{ date: '2026-04-01T10:00:00.000Z', firstname: 'Jana', lastname: 'Nová', email: 'jana@example.com' }],
        },
      ],
    });
    mockAdminApi({ ...common, 'GET web-channel/9': stored });
    const rights = buildRights(
      ([page, action]) => !(page === 'webChannel' && (action === 'update' || action === 'create')),
    );
    const { user } = renderWithSession(webChannelRoutes, '/web-channel/detail/9', {
      ...testSession(),
      superuser: false,
      rights,
    });
    expect(await screen.findByDisplayValue('Press')).toBeDisabled();
    expect(screen.getByText(t('basics.readOnly'))).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: t('webChannel.tab.authorization') }));
    const row = screen.getByRole('row', { name: /USED1/ });
    expect(within(row).getByRole('button', { name: `${t('basics.edit')}: USED1` })).toBeDisabled();
    expect(screen.getByRole('button', { name: t('webChannel.addCode') })).toBeDisabled();
    expect(screen.getByRole('button', { name: t('webChannel.exportCodes') })).toBeEnabled();
    await user.click(within(row).getByRole('button', { name: `${t('webChannel.usageLog')}: USED1` }));
    expect(
      within(await screen.findByRole('dialog')).getByRole('cell', { name: 'jana@example.com' }),
    ).toBeInTheDocument();
  });

  it('adds a code with the default uses and refuses a duplicate', async () => {
    const stored = channel({
      withAuthorization: true,
      authorizationType: 3,
      byCode: true,
      numberUseExtCode: 3,
      externalCode: [{ id: 1, code: 'ABC', numberOfUse: 1, used: 0, log: [] }],
    });
    mockAdminApi({ ...common, 'GET web-channel/9': stored });
    const { user } = renderWithSession(webChannelRoutes, '/web-channel/detail/9');
    expect(await screen.findByDisplayValue('Press')).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: t('webChannel.tab.authorization') }));
    await user.click(screen.getByRole('button', { name: t('webChannel.addCode') }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('textbox', { name: new RegExp(t('webChannel.numberOfUse')) })).toHaveValue('3');
    await user.type(within(dialog).getByRole('textbox', { name: new RegExp(`^${t('webChannel.code')}`) }), 'abc');
    await user.click(within(dialog).getByRole('button', { name: t('webChannel.apply') }));
    expect(await within(dialog).findByText(t('webChannelRules.codeExists'))).toBeInTheDocument();
    await user.clear(within(dialog).getByRole('textbox', { name: new RegExp(`^${t('webChannel.code')}`) }));
    await user.type(within(dialog).getByRole('textbox', { name: new RegExp(`^${t('webChannel.code')}`) }), 'def');
    await user.click(within(dialog).getByRole('button', { name: t('webChannel.apply') }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(within(screen.getByRole('row', { name: /DEF/ })).getByText('3')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: t('basics.save') })).toBeInTheDocument();
  });

  it('shows the server refusal of a duplicate login on save', async () => {
    mockAdminApi({
      ...common,
      'GET web-channel/9': channel(),
      'PUT web-channel/9': jsonResponse(
        {
          error: {
            code: 'WEB_CHANNEL_USER_EXIST',
            message: 'x',
            details: { fields: [{ path: 'name', key: 'webChannelRules.userLoginExists' }] },
          },
        },
        409,
      ),
    });
    const { user } = renderWithSession(webChannelRoutes, '/web-channel/detail/9');
    await user.type(await screen.findByDisplayValue('Press'), '!');
    await user.click(saveButton());
    expect(await screen.findAllByText(t('webChannelRules.userLoginExists'))).not.toHaveLength(0);
  });
});
