import { buildRights, type Session } from '@accredo/domain';
import { FileInput, Modal } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '../api/storage';
import { mockAdminApi } from '../testing/mock-api';
import { renderRoutes, renderUi, t } from '../testing/render';
import { appRoutes } from './all-routes';
import { i18n } from './i18n';

/** Issue 15: a skip link first, the page's language on <html>, a tab title naming the page. */

const subject = { id: 1, name: 'Demo', key: 'demo', multiLanguage: true, extensions: [], timeZone: 'Europe/Prague' };
const session = (): Session => ({
  token: 'tok',
  rights: buildRights(false),
  superuser: true,
  manageuser: false,
  subject,
});

beforeEach(() => {
  window.localStorage.setItem(STORAGE_KEYS.adminToken, 'tok');
});

afterEach(async () => {
  vi.unstubAllGlobals();
  await act(() => i18n.changeLanguage('cs'));
});

describe('skip link', () => {
  it('is the first Tab stop of the admin app and moves the focus to the main content', async () => {
    mockAdminApi({ 'GET authorization': session(), 'GET admin-user': [] });
    const { user } = renderRoutes(appRoutes, ['/admin-user']);
    await screen.findByRole('navigation', { name: t('layout.mainMenu') });

    await user.tab();
    const skip = screen.getByRole('link', { name: t('a11y.skipToContent') });
    expect(skip).toHaveFocus();
    expect(skip).toHaveAttribute('href', '#main-content');
    await user.keyboard('{Enter}');
    const main = screen.getByRole('main');
    expect(main).toHaveFocus();
    expect(main).toHaveAttribute('id', 'main-content');
  });

  it('is the first Tab stop of the login page, whose form is in the main landmark', async () => {
    window.localStorage.removeItem(STORAGE_KEYS.adminToken);
    mockAdminApi({});
    const { user } = renderRoutes(appRoutes, ['/login']);
    const main = await screen.findByRole('main');
    expect(main).toContainElement(await screen.findByRole('button', { name: t('basics.login') }));
    // the e-mail field has the focus first (autofocus); from the top of the page the skip link comes first
    (document.activeElement as HTMLElement | null)?.blur();
    await user.tab();
    expect(screen.getByRole('link', { name: t('a11y.skipToContent') })).toHaveFocus();
  });

  it('reads in each language', () => {
    const texts = (['cs', 'sk', 'en', 'de'] as const).map((lng) => i18n.getFixedT(lng)('a11y.skipToContent'));
    expect(texts).toEqual(['Přeskočit na obsah', 'Preskočiť na obsah', 'Skip to content', 'Zum Inhalt springen']);
  });
});

describe('the page language', () => {
  it('follows the UI language, whichever way it changes', async () => {
    mockAdminApi({ 'GET authorization': session(), 'GET admin-user': [] });
    const { user } = renderRoutes(appRoutes, ['/admin-user']);
    const switcher = await screen.findByRole('combobox', { name: t('basics.language') });
    expect(document.documentElement.lang).toBe('cs');

    await user.click(switcher);
    await user.click(await screen.findByRole('option', { name: 'English' }));
    await waitFor(() => expect(document.documentElement.lang).toBe('en'));
    await act(() => i18n.changeLanguage('de'));
    expect(document.documentElement.lang).toBe('de');
  });
});

describe('tab title', () => {
  it('names the admin page by its route, in the UI language', async () => {
    mockAdminApi({ 'GET authorization': session(), 'GET admin-user': [] });
    const { router } = renderRoutes(appRoutes, ['/admin-user']);
    await waitFor(() => expect(document.title).toBe(`${t('menu.adminUsers')} · Accredo`));

    await act(() => router.navigate('/'));
    await waitFor(() => expect(document.title).toBe(`${t('menu.dashboard')} · Accredo`));
    await act(() => router.navigate('/admin-user/create'));
    await waitFor(() => expect(document.title).toBe(`${t('adminUser.create')} · Accredo`));
    await act(() => router.navigate('/no/such/page'));
    await waitFor(() => expect(document.title).toBe(`${t('basics.notFoundTitle')} · Accredo`));

    await act(() => i18n.changeLanguage('en'));
    expect(document.title).toBe(`${i18n.getFixedT('en')('basics.notFoundTitle')} · Accredo`);
  });

  it('names the login page', async () => {
    window.localStorage.removeItem(STORAGE_KEYS.adminToken);
    mockAdminApi({});
    renderRoutes(appRoutes, ['/login']);
    await waitFor(() => expect(document.title).toBe(`${t('basics.loginTitle')} · Accredo`));
  });
});

describe('close buttons', () => {
  it('of a dialog and a toast are named', async () => {
    renderUi(
      <Modal opened onClose={() => undefined} title="Dialog">
        body
      </Modal>,
    );
    expect(await screen.findByRole('dialog')).toBeInTheDocument();
    act(() => notifications.show({ message: 'Saved' }));
    await waitFor(() => expect(screen.getAllByRole('button', { name: t('basics.close') })).toHaveLength(2));
  });

  it('of a field that can be cleared say "Clear"', () => {
    // (a select's clear button is hidden from assistive technology by Mantine: Backspace clears it)
    renderUi(<FileInput label="File" clearable value={new File(['x'], 'a.xlsx')} onChange={() => undefined} />);
    expect(screen.getByRole('button', { name: t('a11y.clear') })).toBeInTheDocument();
  });
});
