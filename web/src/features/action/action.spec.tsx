import { buildRights } from '@accredo/domain';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ActionDto } from '../../api/action';
import { STORAGE_KEYS } from '../../api/storage';
import { i18n } from '../../app/i18n';
import { t } from '../../testing/render';
import { actionFormValues } from './action-form-values';
import { formatDay } from './date-tab';
import { actionRoutes } from './routes';
import { ActionSwitcher } from './use-current-action';
import { mockAdminApi, renderWithSession, testSession } from '../../testing/session';

const text = (cs: string) => ({ cs, sk: '', en: '', de: '' });
const day = (id: string) => ({ id, name: text(`Day ${id}`), onAccreditation: id.slice(5) });

function actionDto(patch: Partial<ActionDto> = {}): ActionDto {
  const values = actionFormValues();
  return {
    ...values,
    id: 7,
    name: text('Summer fest'),
    dateFrom: '2026-05-01T08:00',
    dateTo: '2026-05-03T23:59',
    multiDay: true,
    days: ['2026-05-01', '2026-05-02', '2026-05-03'].map(day),
    previewData: values.previewData as unknown as ActionDto['previewData'],
    extension: [],
    dateCreate: '2026-01-01T10:00:00.000Z',
    ...patch,
  } as ActionDto;
}

const customFields = [
  {
    id: 3,
    name: 'T-shirt',
    label: text('Tričko'),
    tooltip: text(''),
    customFieldType: { id: 4, code: 'SELECT' },
    options: [{ id: 'a', value: 'M' }],
    placeholder: '{{custom_field.[3]}}',
  },
  {
    id: 5,
    name: 'Company',
    label: text('Firma'),
    tooltip: text(''),
    customFieldType: { id: 1, code: 'TEXT' },
    options: [],
    placeholder: '{{custom_field.[5]}}',
  },
];

const common = {
  'GET mail-template': [
    { id: 11, name: 'Welcome', type: 1 },
    { id: 12, name: 'Newsletter', type: 2 },
  ],
  'GET custom-field': customFields,
};

const dayGroup = (id: string) => screen.queryByRole('group', { name: formatDay(id, i18n.language) });
const saveButton = () => screen.getByRole('button', { name: t('basics.save') });

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('action detail', () => {
  it('regenerates the days from the range on the Date tab and adds a remaining day back', async () => {
    const saved = actionDto({ dateFrom: '2026-05-02T08:00', dateTo: '2026-05-04T23:59' });
    const { calls } = mockAdminApi({ ...common, 'GET action/7': actionDto(), 'PUT action/7': saved });
    const { user } = renderWithSession(actionRoutes, '/action/detail/7');

    await user.click(await screen.findByRole('tab', { name: t('action.tab.date') }));
    for (const id of ['2026-05-01', '2026-05-02', '2026-05-03']) expect(dayGroup(id)).toBeInTheDocument();

    // a shorter range: the days outside disappear
    fireEvent.change(screen.getByLabelText(t('action.dateFrom')), { target: { value: '2026-05-02T08:00' } });
    expect(dayGroup('2026-05-01')).not.toBeInTheDocument();
    expect(dayGroup('2026-05-02')).toBeInTheDocument();
    expect(dayGroup('2026-05-03')).toBeInTheDocument();

    // a longer range keeps the days; the new one can be added from the remaining ones
    fireEvent.change(screen.getByLabelText(t('action.dateTo'), { exact: false }), {
      target: { value: '2026-05-04T23:59' },
    });
    expect(dayGroup('2026-05-04')).not.toBeInTheDocument();
    await user.click(screen.getByRole('combobox', { name: t('action.addDay') }));
    const listbox = await screen.findByRole('listbox');
    expect(
      within(listbox)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual([formatDay('2026-05-04', i18n.language)]);
    await user.click(within(listbox).getByRole('option'));
    const added = dayGroup('2026-05-04') as HTMLElement;
    expect(added).toBeInTheDocument();
    expect(within(added).getByLabelText(t('action.dayName'), { exact: false })).toHaveValue('2026-05-04');
    expect(screen.queryByRole('combobox', { name: t('action.addDay') })).not.toBeInTheDocument();

    await user.click(saveButton());
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    const body = calls.find((c) => c.method === 'PUT')?.body as ActionDto;
    expect(body.dateFrom).toBe('2026-05-02T08:00');
    expect(body.days.map((d) => d.id)).toEqual(['2026-05-02', '2026-05-03', '2026-05-04']);
    expect(body.days[2]).toEqual({
      id: '2026-05-04',
      name: { cs: '2026-05-04', sk: '', en: '', de: '' },
      onAccreditation: '04.05',
    });
    expect(await screen.findByText(t('action.saved'))).toBeInTheDocument();
  });

  it('does not save a multi-day action whose days were all removed, and says why', async () => {
    const { calls } = mockAdminApi({ ...common, 'GET action/7': actionDto() });
    const { user } = renderWithSession(actionRoutes, '/action/detail/7');
    await user.click(await screen.findByRole('tab', { name: t('action.tab.date') }));
    for (const id of ['2026-05-01', '2026-05-02', '2026-05-03'])
      await user.click(
        within(dayGroup(id) as HTMLElement).getByRole('button', {
          name: `${t('basics.remove')}: ${formatDay(id, i18n.language)}`,
        }),
      );
    await user.click(saveButton());
    expect(await screen.findByText(t('action.multiDayNeedsDays'))).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
  });

  it('shows the default-value input only while the hidden flag is on, and adds user fields', async () => {
    const action = actionDto({
      customField: [
        { id: 3, name: 'T-shirt', customFieldType: 4, isMandatory: false, notShow: false, defaultValue: '' },
      ],
    });
    const { calls } = mockAdminApi({ ...common, 'GET action/7': action, 'PUT action/7': action });
    const { user } = renderWithSession(actionRoutes, '/action/detail/7');

    const row = await screen.findByRole('group', { name: 'Tričko (T-shirt)' });
    expect(within(row).queryByLabelText(t('action.fieldDefaultValue'))).not.toBeInTheDocument();
    await user.click(within(row).getByRole('checkbox', { name: t('action.fieldHidden') }));
    const defaultValue = within(row).getByLabelText(t('action.fieldDefaultValue'));
    await user.type(defaultValue, 'XL');
    await user.click(within(row).getByRole('checkbox', { name: t('action.fieldMandatory') }));

    // only fields not yet selected are offered
    await user.click(screen.getByRole('combobox', { name: t('action.addUserField') }));
    const listbox = await screen.findByRole('listbox');
    expect(
      within(listbox)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Firma (Company)']); // the label people read, with the internal name
    await user.click(within(listbox).getByRole('option', { name: 'Firma (Company)' }));
    expect(screen.getByRole('group', { name: 'Firma (Company)' })).toBeInTheDocument();

    await user.click(saveButton());
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    const body = calls.find((c) => c.method === 'PUT')?.body as ActionDto;
    expect(body.customField).toEqual([
      { id: 3, isMandatory: true, notShow: true, defaultValue: 'XL' },
      { id: 5, isMandatory: false, notShow: false, defaultValue: '' },
    ]);

    // the saved action (as answered) has the flag off again: the input goes away
    const saved = await screen.findByRole('group', { name: 'Tričko (T-shirt)' });
    await waitFor(() => expect(within(saved).queryByLabelText(t('action.fieldDefaultValue'))).not.toBeInTheDocument());
    expect(within(saved).getByRole('checkbox', { name: t('action.fieldHidden') })).not.toBeChecked();
  });

  it('creates an action with the right body and opens its detail', async () => {
    const created = actionDto({ id: 42 });
    const { calls } = mockAdminApi({ ...common, 'POST action': created, 'GET action/42': created });
    const { user, router } = renderWithSession(actionRoutes, '/action/create');

    await user.type(await screen.findByLabelText(t('action.name'), { exact: false }), 'Summer fest');
    await user.click(screen.getByRole('combobox', { name: t('action.afterMailTemplate') }));
    const listbox = await screen.findByRole('listbox');
    // only mails after registration (type 1) are offered
    expect(
      within(listbox)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Welcome']);
    await user.click(within(listbox).getByRole('option', { name: 'Welcome' }));
    await user.click(screen.getByRole('switch', { name: t('action.withPhoto') }));
    await user.click(screen.getByRole('switch', { name: t('action.requirePhoto') }));

    await user.click(screen.getByRole('tab', { name: t('action.tab.date') }));
    fireEvent.change(screen.getByLabelText(t('action.dateFrom')), { target: { value: '2026-05-01T08:00' } });
    fireEvent.change(screen.getByLabelText(t('action.dateTo'), { exact: false }), {
      target: { value: '2026-05-02T18:00' },
    });
    await user.click(screen.getByRole('switch', { name: t('action.multiDay') }));
    expect(dayGroup('2026-05-01')).toBeInTheDocument();
    expect(dayGroup('2026-05-02')).toBeInTheDocument();

    await user.click(screen.getByRole('tab', { name: t('action.tab.optional') }));
    await user.click(screen.getByRole('button', { name: t('action.addCheckingAttribute') }));
    await user.type(screen.getByLabelText(t('action.attributeLabel'), { exact: false }), 'I agree');
    await user.click(screen.getByRole('checkbox', { name: t('action.attributeRequired') }));

    await user.click(saveButton());
    await waitFor(() => expect(router.state.location.pathname).toBe('/action/detail/42'));
    const post = calls.find((c) => c.method === 'POST');
    expect(post?.path).toBe('action');
    const empty = text('');
    const block = { show: false, title: empty, html: empty };
    expect(post?.body).toEqual({
      name: text('Summer fest'),
      dateFrom: '2026-05-01T08:00',
      dateTo: '2026-05-02T18:00',
      multiDay: true,
      days: [
        { id: '2026-05-01', name: text('2026-05-01'), onAccreditation: '01.05' },
        { id: '2026-05-02', name: text('2026-05-02'), onAccreditation: '02.05' },
      ],
      afterMailTemplateId: 11,
      isCredit: false,
      withPhoto: true,
      requirePhoto: true,
      smartBc: false,
      customField: [],
      textOnline: empty,
      textAfterAdd: empty,
      checkingAttributes: [{ id: null, label: text('I agree'), url: '', required: true }],
      previewData: {
        title: empty,
        image: null,
        credit: block,
        custom: block,
        meal: { ...block, allowSelect: false, selectDateTime: null },
        parking: { ...block, allowSelect: false, selectDateTime: null },
      },
    });
    expect(await screen.findByText(t('action.created'))).toBeInTheDocument();
  });

  it('shows translated errors on the tab that has them and does not post an invalid action', async () => {
    const { calls } = mockAdminApi(common);
    const { user } = renderWithSession(actionRoutes, '/action/create');
    await user.click(await screen.findByRole('tab', { name: t('action.tab.date') }));
    fireEvent.change(screen.getByLabelText(t('action.dateFrom')), { target: { value: '2026-05-03T08:00' } });
    fireEvent.change(screen.getByLabelText(t('action.dateTo'), { exact: false }), {
      target: { value: '2026-05-01T18:00' },
    });
    await user.click(saveButton());
    expect(await screen.findByText(t('action.dateFromAfterTo'))).toBeInTheDocument();
    // the name is missing on the Basic tab: the form shows that tab with the message
    await user.click(screen.getByRole('tab', { name: new RegExp(t('action.tab.basic')) }));
    expect(screen.getByText(t('basics.requireField'))).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('links the test preview (new tab) only with smartBc and only for holders of user.goToPreview', async () => {
    mockAdminApi({ ...common, 'GET action/7': actionDto({ smartBc: true }) });
    renderWithSession(actionRoutes, '/action/detail/7');
    const preview = await screen.findByRole('link', { name: t('action.testPreview') });
    expect(preview).toHaveAttribute('href', '/preview/demo/cid/tst7');
    expect(preview).toHaveAttribute('target', '_blank');
    cleanup();
    mockAdminApi({ ...common, 'GET action/7': actionDto({ smartBc: true }) });
    renderWithSession(actionRoutes, '/action/detail/7', {
      ...testSession(),
      superuser: false,
      rights: buildRights((pair) => pair[0] === 'action'),
    });
    await screen.findByRole('tab', { name: t('action.tab.basic') });
    expect(screen.queryByRole('link', { name: t('action.testPreview') })).not.toBeInTheDocument();
  });

  it('offers the Preview tab only with smartBc, meal and parking only for the action’s extensions', async () => {
    mockAdminApi({
      ...common,
      'GET action/7': actionDto({ smartBc: false, extension: [1] }),
    });
    const { user } = renderWithSession(actionRoutes, '/action/detail/7', testSession({ extensions: [1, 2] }));
    await screen.findByRole('tab', { name: t('action.tab.basic') });
    // the test preview needs smartBc on the saved action
    expect(screen.queryByRole('link', { name: t('action.testPreview') })).not.toBeInTheDocument();
    expect(screen.queryByRole('tab', { name: t('action.tab.preview') })).not.toBeInTheDocument();

    // a switch's description is part of its label
    await user.click(screen.getByRole('switch', { name: (name) => name.startsWith(t('action.smartBc')) }));
    await user.click(screen.getByRole('tab', { name: t('action.tab.preview') }));
    expect(screen.getByRole('group', { name: t('action.previewBlock.credit') })).toBeInTheDocument();
    const meal = screen.getByRole('group', { name: t('action.previewBlock.meal') });
    expect(screen.queryByRole('group', { name: t('action.previewBlock.parking') })).not.toBeInTheDocument();

    expect(within(meal).queryByLabelText(t('action.blockTitle'), { exact: false })).not.toBeInTheDocument();
    await user.click(within(meal).getByRole('switch', { name: t('action.previewShow') }));
    expect(within(meal).getByLabelText(t('action.blockTitle'), { exact: false })).toBeInTheDocument();
    expect(within(meal).queryByLabelText(t('action.selectDateTime'))).not.toBeInTheDocument();
    await user.click(within(meal).getByRole('switch', { name: t('action.allowSelect') }));
    expect(within(meal).getByLabelText(t('action.selectDateTime'))).toBeInTheDocument();
  });

  it('picks the preview logo from the gallery', async () => {
    const logo = { id: 31, name: 'Logo 2026', type: 3, width: 10, height: 10, path: '/api/file/logo.png' };
    const { calls } = mockAdminApi({
      ...common,
      'GET action/7': actionDto({ smartBc: true }),
      'POST image/all': { paged: { data: [logo], max: 1 } },
      'PUT action/7': actionDto({ smartBc: true }),
    });
    const { user } = renderWithSession(actionRoutes, '/action/detail/7');
    await user.click(await screen.findByRole('tab', { name: t('action.tab.preview') }));
    expect(screen.getByText(t('action.noLogo'))).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: t('action.chooseLogo') }));
    await user.click(await screen.findByRole('button', { name: `${t('action.pickImage')}: Logo 2026` }));
    expect(await screen.findByRole('img', { name: 'Logo 2026' })).toHaveAttribute('src', '/api/file/logo.png');
    expect(calls.find((c) => c.path === 'image/all')?.body).toEqual({ page: 1, pageSize: 8, type: null, phrase: '' });

    await user.click(screen.getByRole('button', { name: t('basics.save') }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    const body = calls.find((c) => c.method === 'PUT')?.body as ActionDto;
    expect(body.previewData.image).toBe(31);
  });

  it('goes home when the action cannot be loaded', async () => {
    mockAdminApi({ ...common, 'GET action/9': new Response('{}', { status: 500 }) });
    const { router } = renderWithSession(actionRoutes, '/action/detail/9');
    expect(await screen.findByText('Home page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(await screen.findByText(t('action.loadError'))).toBeInTheDocument();
  });
});

describe('action list', () => {
  it('lists actions in the current language with a cs fallback and opens one on double-click', async () => {
    mockAdminApi({
      ...common,
      'GET action': [
        actionDto({ id: 1, name: { cs: 'Léto', sk: '', en: 'Summer', de: '' } }),
        actionDto({ id: 2, name: text('Zima'), multiDay: false, dateFrom: null, dateTo: null }),
      ],
      'GET action/2': actionDto({ id: 2, name: text('Zima') }),
    });
    await i18n.changeLanguage('en');
    try {
      const { user, router } = renderWithSession(actionRoutes, '/action');
      expect(await screen.findByRole('row', { name: /Summer/ })).toHaveTextContent('2026-05-01 08:00');
      expect(screen.getByRole('link', { name: t('basics.add') })).toHaveAttribute('href', '/action/create');
      await user.dblClick(screen.getByRole('row', { name: /Zima/ }));
      await waitFor(() => expect(router.state.location.pathname).toBe('/action/detail/2'));
    } finally {
      await i18n.changeLanguage('cs');
    }
  });
});

describe('current action', () => {
  it('starts at the remembered lastAction and remembers another one', async () => {
    const { calls } = mockAdminApi({
      'GET actual': { id: 1, lastAction: 2 },
      'GET action': [actionDto({ id: 1, name: text('Léto') }), actionDto({ id: 2, name: text('Zima') })],
      'PUT actual/action': { lastAction: 1 },
    });
    const { user } = renderWithSession([{ path: 'switcher', element: <ActionSwitcher /> }], '/switcher');
    const select = await screen.findByRole('combobox', { name: t('action.current') });
    await waitFor(() => expect(select).toHaveValue('Zima'));
    await user.click(select);
    await user.click(within(await screen.findByRole('listbox')).getByRole('option', { name: 'Léto' }));
    await waitFor(() => expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ actionId: 1 }));
    await waitFor(() => expect(select).toHaveValue('Léto'));
    expect(window.localStorage.getItem(STORAGE_KEYS.currentAction)).toBe('1');
  });
});
