import type { OnlineChannelData, OnlineChannelInfo } from '@accredo/domain';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getOnlineToken, setOnlineToken } from '../../api/online';
import { STORAGE_KEYS } from '../../api/storage';
import { applyLanguage, i18n } from '../../app/i18n';
import { jsonResponse, renderRoutes, t } from '../../testing/render';
import { formatDay } from '../action/format-day';
import { onlineRoutes } from './routes';

const text = (cs: string, more: Partial<Record<'sk' | 'en' | 'de', string>> = {}) => ({
  cs,
  sk: '',
  en: '',
  de: '',
  ...more,
});

function info(patch: Partial<OnlineChannelInfo> = {}): OnlineChannelInfo {
  return {
    channelKey: 'fest',
    name: 'Public',
    languages: ['cs'],
    multiLanguage: false,
    logo: null,
    withAuthorization: false,
    authorizationType: null,
    authorizationText: text(''),
    actionName: text('Festival'),
    ...patch,
  };
}

function data(patch: Partial<OnlineChannelData> = {}): OnlineChannelData {
  return {
    ...info(),
    afterAdd: { action: 1 },
    customNameFirstname: text(''),
    customNameLastname: text(''),
    customNameEmail: text('Pracovní e-mail'),
    textOnline: text('<p>Vítejte na <b>festivalu</b></p>'),
    textAfterAdd: text('<p>Brzy se ozveme</p>'),
    withPhoto: false,
    requirePhoto: false,
    viewGroups: false,
    groupsSelectName: text(''),
    groups: [],
    viewDays: false,
    daysSelectName: text(''),
    days: [],
    defaultDays: [],
    customField: [
      {
        id: 3,
        name: 'company',
        label: text('Firma', { en: 'Company' }),
        tooltip: text(''),
        customFieldType: 1,
        options: [],
        isMandatory: true,
      },
      {
        id: 4,
        name: 'size',
        label: text('Velikost'),
        tooltip: text(''),
        customFieldType: 4,
        options: [
          { id: 'm', value: 'M' },
          { id: 'l', value: 'L' },
        ],
        isMandatory: false,
      },
    ],
    checkingAttributes: [
      { id: 'gdpr', label: text('Souhlasím s podmínkami'), url: 'https://example.com/terms', required: true },
    ],
    viewMealSelect: false,
    viewParkingSelect: false,
    mealItems: [],
    parkingItems: [],
    ...patch,
  };
}

const failure = (code: string, status: number, fields: { path: string; key: string }[] = []) =>
  jsonResponse({ error: { code, message: code, details: { fields } } }, status);

interface Call {
  method: string;
  path: string;
  body: unknown;
  token: string | undefined;
}

/** A fake online API: `METHOD path` → answer (a Response as is, a function per call); records the calls. */
function mockOnlineApi(routes: Record<string, unknown>) {
  const calls: Call[] = [];
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    const path = url.replace('/api/online/v1/', '');
    const headers = (init?.headers ?? {}) as Record<string, string>;
    calls.push({
      method,
      path,
      body: init?.body ? JSON.parse(init.body as string) : undefined,
      token: headers['authorization-online'],
    });
    const key = `${method} ${path}`;
    let answer = routes[key];
    if (typeof answer === 'function') answer = answer(calls.filter((c) => `${c.method} ${c.path}` === key).length);
    if (answer instanceof Response) return answer;
    if (answer !== undefined) return jsonResponse({ data: answer });
    return failure('NOT_FOUND', 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return calls;
}

/** The thank-you summary as [label, value lines joined by ' | '] rows. */
const summaryOf = (thanks: HTMLElement) =>
  within(within(thanks).getByRole('table'))
    .getAllByRole('row')
    .map((row) => [
      within(row).getByRole('rowheader').textContent,
      [...within(row).getByRole('cell').children].map((line) => line.textContent).join(' | '),
    ]);

const setup = (path = '/app/online/fest') => renderRoutes(onlineRoutes, [path]);
const registerButton = () => screen.getByRole('button', { name: t('online.register') });

beforeEach(() => applyLanguage('cs', false));
afterEach(() => vi.unstubAllGlobals());

describe('online registration: channel states', () => {
  it.each([
    ['WEB_CHANNEL_NOT_ACTIVE', 403],
    ['WEB_CHANNEL_NOT_ACTIVE_YET', 403],
    ['WEB_CHANNEL_IS_CLOSED', 403],
    ['WEB_CHANNEL_DOESNT_EXIST', 404],
  ])('shows the message of %s instead of the form', async (code, status) => {
    mockOnlineApi({ 'GET web-channel/fest': failure(code, status) });
    setup();
    expect(await screen.findByRole('alert')).toHaveTextContent(t(`errors.${code}`));
    expect(screen.queryByRole('button', { name: t('online.register') })).not.toBeInTheDocument();
  });

  it('shows no data when the form cannot be loaded', async () => {
    mockOnlineApi({ 'GET web-channel/fest': info(), 'GET web-channel/data/fest': failure('INTERNAL_ERROR', 500) });
    setup();
    expect(await screen.findByRole('alert')).toHaveTextContent(t('online.noData'));
  });

  it('asks for the channel code without one and opens its form', async () => {
    mockOnlineApi({ 'GET web-channel/fest': info(), 'GET web-channel/data/fest': data() });
    const { user, router } = setup('/app/online');
    // the page is its own chunk (a lazy route)
    await user.click(await screen.findByRole('button', { name: t('online.openForm') }));
    expect(await screen.findByText(t('basics.requireField'))).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: new RegExp(t('online.channelCode')) }), 'fest');
    await user.click(screen.getByRole('button', { name: t('online.openForm') }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/online/fest'));
    expect(await screen.findByRole('heading', { name: 'Festival' })).toBeInTheDocument();
  });
});

describe('online registration: the form', { timeout: 30_000 }, () => {
  it('checks the form, registers, thanks and adds next', async () => {
    const calls = mockOnlineApi({
      'GET web-channel/fest': info(),
      'GET web-channel/data/fest': data({
        viewGroups: true,
        groupsSelectName: text('Kategorie'),
        groups: [
          { id: 5, name: 'press', displayName: text('Novináři') },
          { id: 6, name: 'guests', displayName: text('') },
        ],
      }),
      'POST accreditation/fest': { id: 1, customId: 1, afterAdd: { action: 1 }, confirmationMail: true },
    });
    const { user } = setup();
    expect(await screen.findByText('festivalu')).toBeInTheDocument();
    // the page is the main landmark and the tab names it
    expect(screen.getByRole('main')).toContainElement(registerButton());
    expect(document.title).toBe(`${t('online.pageTitle')} · Festival`);
    // the channel's own label of the e-mail; the usual ones otherwise
    expect(screen.getByRole('textbox', { name: /Pracovní e-mail/ })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: new RegExp(t('online.firstname')) })).toBeInTheDocument();
    // no authorization: no logout
    expect(screen.queryByRole('button', { name: t('online.logout') })).not.toBeInTheDocument();

    await user.click(registerButton());
    expect(await screen.findAllByText(t('basics.requireField'))).toHaveLength(4); // names, e-mail, company
    expect(screen.getByText(t('webChannelRules.groupRequired'))).toBeInTheDocument();
    expect(screen.getByText(t('webChannelRules.checkingAttributeRequired'))).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    await user.type(screen.getByRole('textbox', { name: new RegExp(t('online.firstname')) }), 'Jana');
    await user.type(screen.getByRole('textbox', { name: new RegExp(t('online.lastname')) }), 'Nová');
    await user.type(screen.getByRole('textbox', { name: /Pracovní e-mail/ }), 'jana@');
    await user.type(screen.getByRole('textbox', { name: /Firma/ }), 'ACME');
    await user.click(screen.getByRole('combobox', { name: /Kategorie/ }));
    await user.click(await screen.findByRole('option', { name: 'guests' }));
    await user.click(screen.getByRole('checkbox', { name: 'Souhlasím s podmínkami' }));
    expect(screen.getByRole('link', { name: 'Souhlasím s podmínkami' })).toHaveAttribute(
      'href',
      'https://example.com/terms',
    );
    await user.click(registerButton());
    expect(await screen.findByText(t('basics.emailNotValid'))).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: /Pracovní e-mail/ }), 'example.com');
    await user.click(registerButton());

    const thanks = await screen.findByRole('status');
    expect(within(thanks).getByText('Brzy se ozveme')).toBeInTheDocument();
    expect(document.title).toBe(`${t('online.thankYouTitle')} · Festival`);
    // what was registered, labelled as on the form, and the mail the channel sends
    expect(summaryOf(thanks)).toEqual([
      [t('online.name'), 'Jana Nová'],
      ['Pracovní e-mail', 'jana@example.com'],
      ['Kategorie', 'guests'],
    ]);
    expect(within(thanks).getByText(t('online.mailOnItsWay', { email: 'jana@example.com' }))).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      firstname: 'Jana',
      lastname: 'Nová',
      email: 'jana@example.com',
      customField: [
        { id: 3, value: 'ACME' },
        { id: 4, value: null },
      ],
      days: [],
      groups: [6],
      image: null,
      mealItems: [],
      parkingItems: [],
      checkingAttributes: { gdpr: true },
      language: 'cs',
    });

    await user.click(within(thanks).getByRole('button', { name: t('online.addNext') }));
    expect(await screen.findByRole('textbox', { name: new RegExp(t('online.firstname')) })).toHaveValue('');
    expect(document.title).toBe(`${t('online.pageTitle')} · Festival`);
  });

  it('shows the default thank-you text and no add-next when the channel says nothing', async () => {
    mockOnlineApi({
      'GET web-channel/fest': info(),
      'GET web-channel/data/fest': data({ afterAdd: { action: 2 }, textAfterAdd: text(''), checkingAttributes: [] }),
      'POST accreditation/fest': { id: 1, customId: 1, afterAdd: { action: 2 }, confirmationMail: false },
    });
    const { user } = setup();
    await user.type(await screen.findByRole('textbox', { name: new RegExp(t('online.firstname')) }), 'Jan');
    await user.type(screen.getByRole('textbox', { name: new RegExp(t('online.lastname')) }), 'Novák');
    await user.type(screen.getByRole('textbox', { name: /Pracovní e-mail/ }), 'jan@example.com');
    await user.type(screen.getByRole('textbox', { name: /Firma/ }), 'ACME');
    await user.click(registerButton());
    const thanks = await screen.findByRole('status');
    expect(within(thanks).getByText(t('online.registered'))).toBeInTheDocument();
    expect(within(thanks).queryByRole('button', { name: t('online.addNext') })).not.toBeInTheDocument();
    // no mail template on the channel or the action: no mail is promised
    expect(within(thanks).queryByText(t('online.mailOnItsWay', { email: 'jan@example.com' }))).not.toBeInTheDocument();
  });

  it('summarises only the days this visitor chose, by their names, in the page language', async () => {
    mockOnlineApi({
      'GET web-channel/fest': info(),
      'GET web-channel/data/fest': data({
        checkingAttributes: [],
        customField: [],
        viewDays: true,
        daysSelectName: text('Kdy přijdete'),
        days: [
          { id: '2027-05-10', name: text('Pondělí') },
          { id: '2027-05-11', name: text('') },
          { id: '2027-05-12', name: text('Středa') },
        ],
        defaultDays: ['2027-05-12'],
      }),
      'POST accreditation/fest': { id: 1, customId: 1, afterAdd: { action: 1 }, confirmationMail: false },
    });
    const { user } = setup();
    await user.type(await screen.findByRole('textbox', { name: new RegExp(t('online.firstname')) }), 'Jan');
    await user.type(screen.getByRole('textbox', { name: new RegExp(t('online.lastname')) }), 'Novák');
    await user.type(screen.getByRole('textbox', { name: /Pracovní e-mail/ }), 'jan@example.com');
    await user.click(screen.getByRole('checkbox', { name: formatDay('2027-05-11', 'cs') }));
    await user.click(registerButton());
    const thanks = await screen.findByRole('status');
    expect(summaryOf(thanks)).toEqual([
      [t('online.name'), 'Jan Novák'],
      ['Pracovní e-mail', 'jan@example.com'],
      ['Kdy přijdete', `${formatDay('2027-05-11', 'cs')} | Středa`],
    ]);
  });

  it.each([
    ['EMAIL_EXIST', 409, 'online.emailExists'],
    ['EMAIL_NOT_VALID', 400, 'online.enterValidEmail'],
  ])('reports %s under registerNoOk', async (code, status, line) => {
    mockOnlineApi({
      'GET web-channel/fest': info(),
      'GET web-channel/data/fest': data({ checkingAttributes: [], customField: [] }),
      'POST accreditation/fest': failure(code, status),
    });
    const { user } = setup();
    await user.type(await screen.findByRole('textbox', { name: new RegExp(t('online.firstname')) }), 'Jan');
    await user.type(screen.getByRole('textbox', { name: new RegExp(t('online.lastname')) }), 'Novák');
    await user.type(screen.getByRole('textbox', { name: /Pracovní e-mail/ }), 'jan@example.com');
    await user.click(registerButton());
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(t('online.registerNoOk'));
    expect(alert).toHaveTextContent(t(line));
    expect(screen.getByRole('textbox', { name: /Pracovní e-mail/ })).toHaveAttribute('aria-invalid', 'true');
  });

  it('puts the server field errors on their inputs', async () => {
    mockOnlineApi({
      'GET web-channel/fest': info(),
      'GET web-channel/data/fest': data({ checkingAttributes: [] }),
      'POST accreditation/fest': failure('VALIDATION_ERROR', 400, [
        { path: 'customField.3', key: 'basics.invalidValue' },
      ]),
    });
    const { user } = setup();
    await user.type(await screen.findByRole('textbox', { name: new RegExp(t('online.firstname')) }), 'Jan');
    await user.type(screen.getByRole('textbox', { name: new RegExp(t('online.lastname')) }), 'Novák');
    await user.type(screen.getByRole('textbox', { name: /Pracovní e-mail/ }), 'jan@example.com');
    await user.type(screen.getByRole('textbox', { name: /Firma/ }), 'ACME');
    await user.click(registerButton());
    expect(await screen.findByText(t('basics.invalidValue'))).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(t('online.registerNoOk'));
  });

  it('requires the photo when the action does and refuses a file over 2 MB', async () => {
    mockOnlineApi({
      'GET web-channel/fest': info(),
      'GET web-channel/data/fest': data({ withPhoto: true, requirePhoto: true, checkingAttributes: [] }),
    });
    const { user } = setup();
    await user.click(await screen.findByRole('button', { name: t('online.register') }));
    expect(await screen.findByText(t('webChannelRules.photoRequired'))).toBeInTheDocument();
    const big = new File([new Uint8Array(2_097_153)], 'big.png', { type: 'image/png' });
    await user.upload(document.querySelector('input[type="file"]') as HTMLInputElement, big);
    expect(await screen.findByText(t('online.photoTooLarge'))).toBeInTheDocument();
    expect(screen.getByRole('button', { name: t('online.photoCamera') })).toBeInTheDocument();
  });
});

describe('online registration: authorization', { timeout: 30_000 }, () => {
  it('signs in with the channel password, keeps the token, and logs out', async () => {
    const calls = mockOnlineApi({
      'GET web-channel/fest': info({
        withAuthorization: true,
        authorizationType: 1,
        authorizationText: text('<p>Heslo najdete v pozvánce</p>'),
      }),
      'POST web-channel/login': (n: number) =>
        n === 1 ? failure('USER_DOESNT_EXIST', 401) : { token: 'tok-1', authorizationType: 1 },
      'POST web-channel/authorize/fest': { authorizationType: 1 },
      'GET web-channel/data/fest': data(),
      'POST web-channel/logout/fest': true,
    });
    const { user } = setup();
    expect(await screen.findByText('Heslo najdete v pozvánce')).toBeInTheDocument();
    // by password only a password
    expect(screen.queryByRole('textbox', { name: new RegExp(t('online.login')) })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: t('online.signIn') }));
    expect(await screen.findByText(t('basics.requireField'))).toBeInTheDocument();

    await user.type(screen.getByLabelText(t('online.password'), { exact: false, selector: 'input' }), 'wrong');
    await user.click(screen.getByRole('button', { name: t('online.signIn') }));
    expect(await screen.findByRole('alert')).toHaveTextContent(t('errors.USER_DOESNT_EXIST'));

    await user.click(screen.getByRole('button', { name: t('online.signIn') }));
    expect(await screen.findByText('festivalu')).toBeInTheDocument();
    expect(getOnlineToken('fest')).toBe('tok-1');
    expect(
      calls.find((c) => c.path === 'web-channel/login' && c.body && (c.body as { password?: string }).password)?.body,
    ).toEqual({ channelKey: 'fest', password: 'wrong' });
    expect(calls.find((c) => c.path === 'web-channel/data/fest')?.token).toBe('tok-1');

    await user.click(screen.getByRole('button', { name: t('online.logout') }));
    expect(await screen.findByText(t('online.logoutSuccess'))).toBeInTheDocument();
    expect(getOnlineToken('fest')).toBeNull();
    expect(screen.getByRole('button', { name: t('online.signIn') })).toBeInTheDocument();
  });

  it.each([
    ['USED_WEB_CHANNEL_CODE', 403],
    ['INVALID_WEB_CHANNEL_CODE', 401],
    ['TOO_MANY_REQUESTS', 429],
    ['BAD_REQUEST', 400],
  ])('tells the visitor about %s at a code sign-in', async (code, status) => {
    mockOnlineApi({
      'GET web-channel/fest': info({ withAuthorization: true, authorizationType: 3 }),
      'POST web-channel/login': failure(code, status),
    });
    const { user } = setup();
    await user.type(await screen.findByRole('textbox', { name: new RegExp(t('online.code')) }), 'abc');
    await user.click(screen.getByRole('button', { name: t('online.signIn') }));
    const expected = code === 'BAD_REQUEST' ? 'online.authError' : `errors.${code}`;
    expect(await screen.findByRole('alert')).toHaveTextContent(t(expected));
  });

  it('asks for login and password with login users', async () => {
    const calls = mockOnlineApi({
      'GET web-channel/fest': info({ withAuthorization: true, authorizationType: 2 }),
      'POST web-channel/login': { token: 'tok-2', authorizationType: 2 },
      'POST web-channel/authorize/fest': { authorizationType: 2 },
      'GET web-channel/data/fest': data(),
    });
    const { user } = setup();
    await user.type(await screen.findByRole('textbox', { name: new RegExp(t('online.login')) }), 'reporter');
    await user.type(screen.getByLabelText(t('online.password'), { exact: false, selector: 'input' }), 'secret');
    await user.click(screen.getByRole('button', { name: t('online.signIn') }));
    expect(await screen.findByText('festivalu')).toBeInTheDocument();
    expect(calls.find((c) => c.path === 'web-channel/login')?.body).toEqual({
      channelKey: 'fest',
      login: 'reporter',
      password: 'secret',
    });
  });

  it('drops an expired token and asks to sign in again', async () => {
    setOnlineToken('fest', 'old');
    mockOnlineApi({
      'GET web-channel/fest': info({ withAuthorization: true, authorizationType: 1 }),
      'POST web-channel/authorize/fest': failure('TOKEN_EXPIRED', 401),
    });
    setup();
    expect(await screen.findByText(t('online.signInAgain'))).toBeInTheDocument();
    expect(getOnlineToken('fest')).toBeNull();
  });

  it('drops a used-up code after a registration and says so', async () => {
    setOnlineToken('fest', 'code-token');
    mockOnlineApi({
      'GET web-channel/fest': info({ withAuthorization: true, authorizationType: 3 }),
      'POST web-channel/authorize/fest': (n: number) =>
        n === 1 ? { authorizationType: 3 } : failure('USED_WEB_CHANNEL_CODE', 403),
      'GET web-channel/data/fest': data({ checkingAttributes: [], customField: [] }),
      'POST accreditation/fest': { id: 1, customId: 1, afterAdd: { action: 1 }, confirmationMail: false },
    });
    const { user } = setup();
    await user.type(await screen.findByRole('textbox', { name: new RegExp(t('online.firstname')) }), 'Jan');
    await user.type(screen.getByRole('textbox', { name: new RegExp(t('online.lastname')) }), 'Novák');
    await user.type(screen.getByRole('textbox', { name: /Pracovní e-mail/ }), 'jan@example.com');
    await user.click(registerButton());
    await user.click(await screen.findByRole('button', { name: t('online.addNext') }));
    // the next registration checks the sign-in again: the code is used up
    expect(await screen.findByText(t('errors.USED_WEB_CHANNEL_CODE'))).toBeInTheDocument();
    expect(getOnlineToken('fest')).toBeNull();
  });
});

describe('online registration: languages', () => {
  it('offers the channel languages and shows field labels in the chosen one, Czech as the fallback', async () => {
    vi.spyOn(window.navigator, 'languages', 'get').mockReturnValue(['cs-CZ']);
    mockOnlineApi({
      'GET web-channel/fest': info({ multiLanguage: true, languages: ['cs', 'sk', 'en', 'de'] }),
      'GET web-channel/data/fest': data({ multiLanguage: true, languages: ['cs', 'sk', 'en', 'de'] }),
    });
    const { user } = setup();
    expect(await screen.findByRole('textbox', { name: /Firma/ })).toBeInTheDocument();
    await user.click(screen.getByRole('combobox', { name: t('basics.language') }));
    await user.click(await screen.findByRole('option', { name: 'English' }));
    await waitFor(() => expect(i18n.language).toBe('en'));
    expect(await screen.findByRole('textbox', { name: /Company/ })).toBeInTheDocument();
    // no English label: the Czech one
    expect(screen.getByRole('combobox', { name: /Velikost/ })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Register' })).toBeInTheDocument();
    vi.restoreAllMocks();
  });

  it("starts a new visitor in their browser's language when the channel offers it", async () => {
    window.localStorage.removeItem(STORAGE_KEYS.language);
    vi.spyOn(window.navigator, 'languages', 'get').mockReturnValue(['fr-FR', 'de-AT', 'en']);
    mockOnlineApi({
      'GET web-channel/fest': info({ multiLanguage: true, languages: ['cs', 'de'] }),
      'GET web-channel/data/fest': data({ multiLanguage: true, languages: ['cs', 'de'] }),
    });
    setup();
    await waitFor(() => expect(i18n.language).toBe('de'));
    expect(document.documentElement.lang).toBe('de');
    vi.restoreAllMocks();
  });

  it('keeps the language a visitor chose before over the browser’s', async () => {
    window.localStorage.setItem(STORAGE_KEYS.language, 'sk');
    vi.spyOn(window.navigator, 'languages', 'get').mockReturnValue(['de-AT', 'en']);
    mockOnlineApi({
      'GET web-channel/fest': info({ multiLanguage: true, languages: ['cs', 'sk', 'de'] }),
      'GET web-channel/data/fest': data({ multiLanguage: true, languages: ['cs', 'sk', 'de'] }),
    });
    setup();
    await waitFor(() => expect(i18n.language).toBe('sk'));
    window.localStorage.removeItem(STORAGE_KEYS.language);
    vi.restoreAllMocks();
  });

  it('forces Czech without multi-language and offers no switcher', async () => {
    applyLanguage('en', false);
    mockOnlineApi({ 'GET web-channel/fest': info(), 'GET web-channel/data/fest': data() });
    setup();
    expect(await screen.findByRole('textbox', { name: /Firma/ })).toBeInTheDocument();
    await waitFor(() => expect(i18n.language).toBe('cs'));
    expect(screen.queryByRole('combobox', { name: t('basics.language') })).not.toBeInTheDocument();
  });
});

describe('online registration: meals and parking', { timeout: 30_000 }, () => {
  const lunch = (id: number, date: string, options: { id: number; cs: string; full?: boolean }[] = []) => ({
    id,
    label: text('Oběd'),
    date,
    timeFrom: '12:00',
    timeTo: '13:00',
    full: false,
    options: options.map((o) => ({ id: o.id, name: text(o.cs), note: '', full: o.full ?? false })),
  });
  const channel = data({
    checkingAttributes: [],
    customField: [],
    viewMealSelect: true,
    viewParkingSelect: true,
    mealItems: [
      lunch(1, '2026-07-01', [
        { id: 11, cs: 'Vegetariánský', full: true },
        { id: 12, cs: 'Masový' },
      ]),
      lunch(2, '2026-07-02'),
    ],
    parkingItems: [
      { id: 5, label: text('Sever'), date: null, timeFrom: '', timeTo: '', full: false, options: [] },
      {
        id: 6,
        label: text('Jih'),
        date: null,
        timeFrom: '',
        timeTo: '',
        full: false,
        options: [{ id: 61, name: text('A1'), note: '', full: true }],
      },
    ],
  });

  it('offers the channel items, full ones disabled, and sends the choices', async () => {
    const calls = mockOnlineApi({
      'GET web-channel/fest': info(),
      'GET web-channel/data/fest': channel,
      'POST accreditation/fest': { id: 1, customId: 1, afterAdd: { action: 1 }, confirmationMail: false },
    });
    const { user } = setup();
    const meals = await screen.findByRole('group', { name: t('extension.online.meal') });
    const fill = async (name: RegExp, value: string) => {
      await user.click(screen.getByRole('textbox', { name }));
      await user.paste(value);
    };
    await fill(new RegExp(t('online.firstname')), 'Jana');
    await fill(new RegExp(t('online.lastname')), 'Nová');
    await fill(/Pracovní e-mail/, 'jana@example.com');

    const selects = within(meals).getAllByRole('combobox');
    expect(selects).toHaveLength(2);
    await user.click(selects[0]);
    let listbox = await screen.findByRole('listbox');
    expect(
      within(listbox).getByRole('option', { name: `Vegetariánský (${t('extension.online.full')})` }),
    ).toHaveAttribute('data-combobox-disabled', 'true');
    await user.click(within(listbox).getByRole('option', { name: 'Masový' }));
    await user.click(selects[1]);
    listbox = await screen.findByRole('listbox');
    await user.click(within(listbox).getByRole('option', { name: 'Oběd' }));

    const parking = screen.getByRole('group', { name: t('extension.online.parking') });
    await user.click(within(parking).getByRole('combobox', { name: t('extension.online.parking') }));
    listbox = await screen.findByRole('listbox');
    expect(within(listbox).getByRole('option', { name: `Jih – A1 (${t('extension.online.full')})` })).toHaveAttribute(
      'data-combobox-disabled',
      'true',
    );
    await user.click(within(listbox).getByRole('option', { name: 'Sever' }));
    await user.click(within(parking).getByRole('textbox', { name: t('extension.online.licencePlate') }));
    await user.paste('1ab2345');

    await user.click(registerButton());
    const thanks = await screen.findByRole('status');
    // the summary names the chosen items and options as the selects did
    expect(summaryOf(thanks)).toEqual([
      [t('online.name'), 'Jana Nová'],
      ['Pracovní e-mail', 'jana@example.com'],
      [
        t('extension.online.meal'),
        `${formatDay('2026-07-01', 'cs')} · Oběd 12:00–13:00 – Masový | ${formatDay('2026-07-02', 'cs')} · Oběd 12:00–13:00`,
      ],
      [t('extension.online.parking'), 'Sever'],
      [t('extension.online.licencePlate'), '1AB2345'],
    ]);
    expect(calls.find((c) => c.method === 'POST')?.body).toMatchObject({
      mealItems: [
        { itemId: 1, option: 12, have: true },
        { itemId: 2, option: null, have: true },
      ],
      // the shared schema writes the plate in capitals
      parkingItems: [{ itemId: 5, option: null, have: true, licencePlate: '1AB2345' }],
    });
  });

  it('says so when the last place was taken meanwhile', async () => {
    const calls = mockOnlineApi({
      'GET web-channel/fest': info(),
      'GET web-channel/data/fest': channel,
      'POST accreditation/fest': failure('EXTENSION_CAPACITY_FULL', 409),
    });
    const { user } = setup();
    await user.click(await screen.findByRole('textbox', { name: new RegExp(t('online.firstname')) }));
    await user.paste('Jana');
    await user.click(screen.getByRole('textbox', { name: new RegExp(t('online.lastname')) }));
    await user.paste('Nová');
    await user.click(screen.getByRole('textbox', { name: /Pracovní e-mail/ }));
    await user.paste('jana@example.com');
    await user.click(registerButton());
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(t('online.registerNoOk'));
    expect(alert).toHaveTextContent(t('actionExtension.capacityFull'));
    // the offer is loaded again, so what is full now shows as full
    await waitFor(() => expect(calls.filter((c) => c.path === 'web-channel/data/fest')).toHaveLength(2));
  });

  it('shows no selects when the channel does not offer them', async () => {
    mockOnlineApi({
      'GET web-channel/fest': info(),
      'GET web-channel/data/fest': { ...channel, viewMealSelect: false, viewParkingSelect: false },
    });
    setup();
    expect(await screen.findByRole('textbox', { name: new RegExp(t('online.firstname')) })).toBeInTheDocument();
    expect(screen.queryByRole('group', { name: t('extension.online.meal') })).not.toBeInTheDocument();
    expect(screen.queryByRole('group', { name: t('extension.online.parking') })).not.toBeInTheDocument();
  });
});
