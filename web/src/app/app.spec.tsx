import { type AdminUser, buildRights, type Session } from '@accredo/domain';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '../api/storage';
import { renderRoutes, t } from '../testing/render';
import { i18n } from './i18n';
import { appRoutes } from './all-routes';
import { mockAdminApi } from '../testing/mock-api';

const subject = { id: 1, name: 'Demo', key: 'demo', multiLanguage: true, extensions: [], timeZone: 'Europe/Prague' };

const session = (patch: Partial<Session> = {}): Session => ({
  token: 'tok',
  rights: buildRights(false),
  superuser: false,
  manageuser: true,
  subject,
  ...patch,
});

const adminUser = (id: number, patch: Partial<AdminUser> = {}): AdminUser => ({
  id,
  login: `user${id}@example.com`,
  name: `User ${id}`,
  active: true,
  verified: true,
  superuser: false,
  manageuser: false,
  lastAction: null,
  actionId: null,
  language: 'cs',
  rights: buildRights(false),
  subjectId: 1,
  dateCreate: '2026-01-01T10:00',
  ...patch,
});

beforeEach(() => {
  window.localStorage.setItem(STORAGE_KEYS.adminToken, 'tok');
});

afterEach(() => {
  vi.unstubAllGlobals();
  void i18n.changeLanguage('cs');
});

describe('admin application', () => {
  it('lists system users with the verify button for manage users and the layout controls', async () => {
    const { fetchMock } = mockAdminApi({
      'GET authorization': session(),
      'GET subject/all': [subject, { ...subject, id: 2, name: 'Other' }],
      'GET admin-user': [adminUser(1), adminUser(2, { verified: false })],
      'PUT admin-user/verify/2': adminUser(2),
    });
    const { user } = renderRoutes(appRoutes, ['/admin-user']);

    expect(await screen.findByText('user2@example.com')).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: t('layout.mainMenu') });
    expect(within(nav).getByRole('link', { name: t('menu.adminUsers') })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('combobox', { name: t('basics.language') })).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: t('subject.switcher') })).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: t('layout.breadcrumb') })).toHaveTextContent(t('menu.adminUsers'));
    // superuser and manageuser hold every right, so Add is offered
    expect(screen.getByRole('link', { name: t('basics.add') })).toHaveAttribute('href', '/admin-user/create');

    const verify = screen.getAllByRole('button', { name: new RegExp(t('adminUser.verify')) });
    expect(verify).toHaveLength(1);
    await user.click(verify[0]);
    await waitFor(() =>
      expect(fetchMock).toHaveBeenCalledWith(
        '/api/admin/v1/admin-user/verify/2',
        expect.objectContaining({ method: 'PUT' }),
      ),
    );
  });

  it('opens the detail on double-click with the Info and Rights tabs', async () => {
    mockAdminApi({
      'GET authorization': session({ manageuser: false, superuser: true }),
      'GET admin-user': [adminUser(1)],
      'GET admin-user/1': adminUser(1),
    });
    const { user, router } = renderRoutes(appRoutes, ['/admin-user']);
    await user.dblClick(await screen.findByRole('row', { name: /user1@example.com/ }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin-user/detail/1'));
    expect(await screen.findByRole('tab', { name: t('adminUser.tabRights') })).toBeInTheDocument();
    expect(screen.getByLabelText(t('adminUser.login'), { exact: false })).toHaveValue('user1@example.com');
    await user.click(screen.getByRole('tab', { name: t('adminUser.tabRights') }));
    const group = screen.getByRole('group', { name: t('rightsPage.image') });
    await user.click(
      within(group).getByRole('checkbox', { name: `${t('adminUser.selectAll')}: ${t('rightsPage.image')}` }),
    );
    expect(within(group).getByRole('checkbox', { name: t('rights.image.update') })).toBeChecked();
    expect(screen.getByRole('button', { name: t('basics.save') })).toBeInTheDocument();
  });

  it('shows the no-rights dashboard, a disabled extension entry and no switchers for an ordinary admin', async () => {
    mockAdminApi({
      'GET authorization': session({
        manageuser: false,
        subject: { ...subject, multiLanguage: false },
        rights: buildRights(([page, action]) => page === 'action' && action === 'get'),
      }),
    });
    renderRoutes(appRoutes, ['/']);
    expect(await screen.findByText(t('dashboard.noRights'))).toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: t('basics.language') })).not.toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: t('subject.switcher') })).not.toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: t('layout.mainMenu') });
    expect(within(nav).getByRole('link', { name: t('menu.actionExtension') })).toHaveAttribute('aria-disabled', 'true');
    expect(within(nav).queryByRole('link', { name: t('menu.dashboard') })).not.toBeInTheDocument();
  });

  it('gates a route by its right and shows the not-found page for unknown paths', async () => {
    mockAdminApi({ 'GET authorization': session({ manageuser: false }) });
    const { router } = renderRoutes(appRoutes, ['/gallery']);
    expect(await screen.findByText(t('errors.FORBIDDEN'))).toBeInTheDocument();
    await router.navigate('/no/such/page');
    expect(await screen.findByText('404')).toBeInTheDocument();
    expect(screen.getByText(t('basics.unknownPage'))).toBeInTheDocument();
    expect(screen.getByRole('link', { name: t('basics.backHome') })).toHaveAttribute('href', '/');
  });

  it('opens the action extensions overview (issue 14) through the router', async () => {
    mockAdminApi({ 'GET authorization': session() });
    renderRoutes(appRoutes, ['/action-extension']);
    expect(await screen.findByRole('heading', { name: t('extension.title') })).toBeInTheDocument();
  });

  it('sends the user to /login without a token', async () => {
    window.localStorage.removeItem(STORAGE_KEYS.adminToken);
    mockAdminApi({});
    const { router } = renderRoutes(appRoutes, ['/admin-user']);
    expect(await screen.findByRole('button', { name: t('basics.login') })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
  });
});
