import type { PreviewData } from '@accredo/domain';
import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '../../api/storage';
import { applyLanguage, i18n } from '../../app/i18n';
import { jsonResponse, renderRoutes, t } from '../../testing/render';
import { previewRoutes } from './routes';

const text = (cs: string, more: Partial<Record<'sk' | 'en' | 'de', string>> = {}) => ({
  cs,
  sk: '',
  en: '',
  de: '',
  ...more,
});
const block = (show: boolean, title = '', html = '') => ({ show, title: text(title), html: text(html) });

function preview(patch: Partial<PreviewData> = {}, blocks: Partial<PreviewData['previewData']> = {}): PreviewData {
  return {
    previewData: {
      title: text('Festival'),
      image: null,
      custom: block(
        true,
        'About',
        '<p>Gates open at 9</p><script>window.hacked = 1</script><img src="x" onerror="window.hacked = 1">',
      ),
      credit: block(true, ''),
      meal: { ...block(true, 'Lunches'), allowSelect: true, selectDateTime: '2999-01-01T00:00' },
      parking: { ...block(false), allowSelect: false, selectDateTime: null },
      ...blocks,
    },
    isCredit: true,
    credit: 250,
    unlimited: false,
    userDays: [{ id: '2026-06-02', name: text('Saturday') }],
    mealItems: [
      {
        id: 7,
        label: text('Lunch'),
        date: '2026-06-02',
        timeFrom: '12:00',
        timeTo: '13:00',
        full: false,
        options: [{ id: 70, name: text('Vegetarian'), note: '', full: false }],
      },
      { id: 8, label: text('Dinner'), date: '2026-06-02', timeFrom: '18:00', timeTo: '19:00', full: true, options: [] },
    ],
    userMeal: [],
    parkingItems: [],
    userParking: [],
    allowMealSelect: true,
    allowParkingSelect: false,
    multiLanguage: false,
    languages: ['cs'],
    test: false,
    ...patch,
  };
}

interface Call {
  method: string;
  path: string;
  body?: unknown;
}

function mockPreviewApi(routes: Record<string, unknown>) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const method = init?.method ?? 'GET';
      const path = url.replace('/api/preview/v1/', '');
      calls.push({ method, path, body: init?.body ? JSON.parse(init.body as string) : undefined });
      const key = `${method} ${path}`;
      let answer = routes[key];
      if (typeof answer === 'function') answer = answer(calls.filter((c) => `${c.method} ${c.path}` === key).length);
      if (answer instanceof Response) return answer;
      if (answer !== undefined) return jsonResponse({ data: answer });
      return jsonResponse({ error: { code: 'PREVIEW_NOT_FOUND', message: 'x' } }, 404);
    }),
  );
  return calls;
}

const setup = (path = '/preview/demo/cid/ABC123') => renderRoutes(previewRoutes, [path]);

beforeEach(() => applyLanguage('cs', false));
afterEach(() => vi.unstubAllGlobals());

describe('preview page (spec §2 Preview page, §8 Preview)', () => {
  it("shows 'page not found' for a wrong key or code", async () => {
    mockPreviewApi({});
    setup('/preview/demo/cid/NOPE');
    expect(await screen.findByRole('alert')).toHaveTextContent(t('preview.pageNotFound'));
  });

  it('shows the title, the sections of their flags, the credit and the days; admin html runs nothing', async () => {
    mockPreviewApi({ 'GET user/demo/ABC123': preview() });
    setup();
    expect(await screen.findByRole('heading', { name: 'Festival' })).toBeInTheDocument();
    expect(screen.getByText('Gates open at 9')).toBeInTheDocument();
    expect(document.querySelector('.preview-html script')).toBeNull();
    expect(document.querySelector('.preview-html img')?.getAttribute('onerror')).toBeNull();
    expect((window as unknown as { hacked?: number }).hacked).toBeUndefined();
    // the credit block has no title of its own: the default one
    expect(screen.getByRole('button', { name: t('preview.credit') })).toBeInTheDocument();
    expect(screen.getByText(new RegExp(t('preview.currency', { amount: 250 })))).toBeInTheDocument();
    expect(screen.getByText('Saturday')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: t('preview.parking') })).not.toBeInTheDocument();
    expect(screen.getByRole('contentinfo')).toHaveTextContent(t('preview.footerCredit'));
  });

  it('shows the default title and the unlimited credit text', async () => {
    mockPreviewApi({
      'GET user/demo/ABC123': preview({ unlimited: true }, { title: text('') }),
    });
    setup();
    expect(await screen.findByRole('heading', { name: t('preview.defaultTitle') })).toBeInTheDocument();
    expect(screen.getByText(new RegExp(t('preview.unlimited')))).toBeInTheDocument();
  });

  it('self-selection: picks a meal with its option, saves the whole list and reloads', async () => {
    const calls = mockPreviewApi({
      'GET user/demo/ABC123': (n: number) =>
        n === 1
          ? preview()
          : preview({ userMeal: [{ itemId: 7, option: 70, have: true, dateUsed: null, licencePlate: null }] }),
      'PUT user/demo/ABC123/extension/1': preview(),
    });
    const { user } = setup();
    const lunch = await screen.findByRole('checkbox', { name: /Lunch 12:00–13:00/ });
    // a full item cannot be taken
    expect(screen.getByRole('checkbox', { name: /Dinner/ })).toBeDisabled();
    await user.click(lunch);
    await user.selectOptions(screen.getByRole('combobox', { name: /Lunch/ }), '70');
    await user.click(screen.getByRole('button', { name: t('preview.save') }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(1));
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ items: [{ itemId: 7, option: 70, have: true }] });
    await waitFor(() => expect(calls.filter((c) => c.method === 'GET')).toHaveLength(2));
    expect(await screen.findByText(t('preview.assigned'))).toBeInTheDocument();
  });

  it('after the deadline shows only the chosen items, read-only, a used meal marked', async () => {
    mockPreviewApi({
      'GET user/demo/ABC123': preview({
        allowMealSelect: false,
        userMeal: [{ itemId: 7, option: 70, have: true, dateUsed: '2026-06-02T12:10', licencePlate: null }],
      }),
    });
    setup();
    expect(await screen.findByText(/Lunch 12:00–13:00/)).toBeInTheDocument();
    expect(screen.getByText('Vegetarian')).toBeInTheDocument();
    expect(screen.getByText(t('preview.used'))).toBeInTheDocument();
    expect(screen.queryByRole('checkbox')).not.toBeInTheDocument();
    expect(screen.queryByText(/Dinner/)).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: t('preview.save') })).not.toBeInTheDocument();
  });

  it('a test preview says so and offers no save', async () => {
    mockPreviewApi({ 'GET user/demo/tst5': preview({ test: true }) });
    setup('/preview/demo/cid/tst5');
    expect(await screen.findByText(t('preview.testPreview'))).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: t('preview.save') })).not.toBeInTheDocument();
  });
});

describe('preview page: languages (issue 15)', () => {
  it("starts a new visitor in their browser's language when the subject offers it, else in Czech", async () => {
    window.localStorage.removeItem(STORAGE_KEYS.language);
    vi.spyOn(window.navigator, 'languages', 'get').mockReturnValue(['fr-FR', 'de-AT', 'en']);
    mockPreviewApi({ 'GET user/demo/ABC123': preview({ multiLanguage: true, languages: ['cs', 'de'] }) });
    const { unmount } = setup();
    await waitFor(() => expect(i18n.language).toBe('de'));
    expect(document.documentElement.lang).toBe('de');
    unmount();

    // a subject without German: the browser's next language it offers (English)
    await applyLanguage('cs', false);
    mockPreviewApi({ 'GET user/demo/ABC123': preview({ multiLanguage: true, languages: ['cs', 'en'] }) });
    setup();
    await waitFor(() => expect(i18n.language).toBe('en'));
    vi.restoreAllMocks();
  });

  it('keeps the language a visitor chose before over the browser’s', async () => {
    window.localStorage.setItem(STORAGE_KEYS.language, 'sk');
    vi.spyOn(window.navigator, 'languages', 'get').mockReturnValue(['de-AT']);
    mockPreviewApi({ 'GET user/demo/ABC123': preview({ multiLanguage: true, languages: ['cs', 'sk', 'de'] }) });
    setup();
    await waitFor(() => expect(i18n.language).toBe('sk'));
    window.localStorage.removeItem(STORAGE_KEYS.language);
    vi.restoreAllMocks();
  });
});
