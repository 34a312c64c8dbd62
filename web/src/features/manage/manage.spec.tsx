import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '../../api/storage';
import { appRoutes } from '../../app/all-routes';
import { jsonResponse, renderRoutes, t } from '../../testing/render';

const operator = { token: 'm-tok', operator: { id: 1, email: 'op@example.com', name: 'Operator' } };
const subject = {
  id: 7,
  name: 'Festival',
  key: 'festival',
  deviceKey: 'dk',
  pathToFiles: 'festival',
  multiLanguage: false,
  extensions: [1],
  timeZone: 'Europe/Prague',
  dateCreate: '2026-01-01T10:00',
};

function mockManageApi(routes: Record<string, unknown>) {
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    const key = `${init?.method ?? 'GET'} ${url.replace('/api/manage/v1/', '')}`;
    if (key in routes) return jsonResponse({ data: routes[key] });
    return jsonResponse({ error: { code: 'NOT_FOUND', message: key } }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

beforeEach(() => window.localStorage.setItem(STORAGE_KEYS.manageToken, 'm-tok'));
afterEach(() => vi.unstubAllGlobals());

describe('manage module', () => {
  it('lists the web channels of a subject with links and authorization labels', async () => {
    const fetchMock = mockManageApi({
      'POST authorize': operator,
      'GET subject/7': subject,
      'GET web-channel/7': [
        { id: 1, name: 'Public', channelKey: 'pub', authorizationType: 1 },
        { id: 2, name: 'Staff', channelKey: 'staff', authorizationType: null },
        { id: 3, name: 'Codes', channelKey: 'codes', authorizationType: 3 },
      ],
    });
    const { user } = renderRoutes(appRoutes, ['/manage/subject/detail/7']);
    expect(await screen.findByDisplayValue('Festival')).toBeInTheDocument();
    expect(screen.getByLabelText(t('subject.pathToFiles'), { exact: false })).toHaveAttribute('readonly');
    expect(screen.getByRole('checkbox', { name: t('subject.extensionMeal') })).toBeChecked();
    await user.click(screen.getByRole('tab', { name: t('manage.tabWebChannels') }));
    const row = await screen.findByRole('row', { name: /Public/ });
    expect(within(row).getByText(t('webChannel.authPassword'))).toBeInTheDocument();
    expect(within(row).getByRole('link', { name: `${t('webChannel.openLink')}: pub` })).toHaveAttribute(
      'href',
      '/app/online/pub',
    );
    expect(within(row).getByRole('button', { name: `${t('webChannel.copyLink')}: pub` })).toBeInTheDocument();
    expect(within(screen.getByRole('row', { name: /Staff/ })).getByText(t('basics.dash'))).toBeInTheDocument();
    expect(within(screen.getByRole('row', { name: /Codes/ })).getByText(t('webChannel.authCode'))).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/manage/v1/subject/7',
      expect.objectContaining({ headers: expect.objectContaining({ 'authorization-manage': 'm-tok' }) }),
    );
  });

  it('says so when the subject has no web channels', async () => {
    mockManageApi({ 'POST authorize': operator, 'GET subject/7': subject, 'GET web-channel/7': [] });
    const { user } = renderRoutes(appRoutes, ['/manage/subject/detail/7']);
    await user.click(await screen.findByRole('tab', { name: t('manage.tabWebChannels') }));
    expect(await screen.findByText(t('basics.noData'))).toBeInTheDocument();
  });

  it('creates an admin user with superuser on by default', async () => {
    const fetchMock = mockManageApi({
      'POST authorize': operator,
      'GET subject': [subject],
      'POST admin-user': { id: 5 },
      'GET admin-user/5': {
        id: 5,
        login: 'boss@example.com',
        name: 'Boss',
        active: true,
        verified: false,
        superuser: true,
        manageuser: false,
        lastAction: null,
        actionId: null,
        language: 'cs',
        rights: {},
        subjectId: 7,
        dateCreate: '2026-01-01T10:00',
      },
    });
    const { user, router } = renderRoutes(appRoutes, ['/manage/admin-user/create?subjectId=7']);
    expect(await screen.findByRole('switch', { name: t('adminUser.superuser') })).toBeChecked();
    await user.type(screen.getByLabelText(t('adminUser.login'), { exact: false }), 'boss@example.com');
    await user.type(screen.getByLabelText(t('basics.password'), { exact: false, selector: 'input' }), 'long-password');
    await user.type(screen.getByLabelText(t('basics.name'), { exact: false }), 'Boss');
    await user.click(screen.getByRole('button', { name: t('basics.save') }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/manage/admin-user/detail/5'));
    const call = fetchMock.mock.calls.find(([url, init]) => url.endsWith('/admin-user') && init?.method === 'POST');
    expect(JSON.parse(call?.[1]?.body as string)).toMatchObject({
      subjectId: 7,
      login: 'boss@example.com',
      superuser: true,
      manageuser: false,
      active: true,
    });
  });
});
