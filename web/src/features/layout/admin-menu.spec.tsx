import { buildRights, type RightsHolder } from '@accredo/domain';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderRoutes, t } from '../../testing/render';
import { AdminMenu } from './admin-menu';

const holder = (pairs: string[]): RightsHolder => ({
  superuser: false,
  manageuser: false,
  rights: buildRights(([page, action]) => pairs.includes(`${page}.${action}`)),
});

function renderMenu(menuHolder: RightsHolder, path = '/') {
  return renderRoutes([{ path: '*', element: <AdminMenu holder={menuHolder} /> }], [path]);
}

const nav = () => screen.getByRole('navigation', { name: t('layout.mainMenu') });

describe('AdminMenu', () => {
  it('hides the entries whose right the user lacks', () => {
    renderMenu(holder(['dashboard.getDashboardData', 'adminUser.get', 'template.get']));
    const menu = within(nav());
    expect(menu.getByRole('link', { name: t('menu.dashboard') })).toHaveAttribute('href', '/');
    expect(menu.getByRole('link', { name: t('menu.adminUsers') })).toHaveAttribute('href', '/admin-user');
    expect(menu.getByRole('link', { name: t('menu.templates') })).toHaveAttribute('href', '/template');
    expect(menu.queryByRole('link', { name: t('menu.gallery') })).not.toBeInTheDocument();
    expect(menu.queryByRole('link', { name: t('menu.subject') })).not.toBeInTheDocument();
    expect(menu.queryByRole('link', { name: t('menu.deviceList') })).not.toBeInTheDocument();
    // a section without any visible entry loses its heading too
    expect(menu.queryByText(t('menu.devices'))).not.toBeInTheDocument();
  });

  it('shows the extension entry disabled with a not-allowed tooltip without its right', async () => {
    const { user } = renderMenu(holder(['action.get']));
    const extension = within(nav()).getByRole('link', { name: t('menu.actionExtension') });
    expect(extension).toHaveAttribute('aria-disabled', 'true');
    expect(extension).not.toHaveAttribute('href');
    expect(within(nav()).getByRole('link', { name: t('menu.actionList') })).toHaveAttribute('href', '/action');
    await user.hover(extension);
    expect(await screen.findByText(t('menu.notAllowed'))).toBeInTheDocument();
  });

  it('enables the extension entry with its right, and shows everything to a superuser', () => {
    const { unmount } = renderMenu(holder(['actionExtension.get']));
    const extension = within(nav()).getByRole('link', { name: t('menu.actionExtension') });
    expect(extension).toHaveAttribute('href', '/action-extension');
    expect(extension).not.toHaveAttribute('aria-disabled');
    unmount();
    renderMenu({ superuser: true, rights: {} });
    for (const key of ['menu.dashboard', 'menu.gallery', 'menu.deviceReports', 'menu.webChannels', 'menu.subject']) {
      expect(within(nav()).getByRole('link', { name: t(key) })).toBeInTheDocument();
    }
  });

  it('marks the entry of the current page', () => {
    renderMenu({ superuser: true, rights: {} }, '/device/rules/detail/3');
    expect(within(nav()).getByRole('link', { name: t('menu.deviceRules') })).toHaveAttribute('aria-current', 'page');
    expect(within(nav()).getByRole('link', { name: t('menu.deviceList') })).not.toHaveAttribute('aria-current');
  });
});
