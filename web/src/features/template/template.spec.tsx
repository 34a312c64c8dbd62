import { buildRights, type Session } from '@accredo/domain';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '../../api/storage';
import { t } from '../../testing/render';
import { templateRoutes } from './routes';
import { bodyOf, mockAdminApi } from '../../testing/mock-api';
import { renderWithSession } from '../../testing/session';

const session: Session = {
  token: 'tok',
  rights: buildRights(true),
  superuser: false,
  manageuser: false,
  subject: { id: 1, name: 'Demo', key: 'demo', multiLanguage: false, extensions: [], timeZone: 'Europe/Prague' },
};

const mail = {
  id: 3,
  name: 'Welcome',
  type: 1,
  subjectFrom: 'Welcome to the festival',
  withAccreditation: true,
  mailCopy: ['office@example.com'],
  html: '<p>Hi</p>',
};
const badge = { id: 4, name: 'Badge A6', type: 1, pageSize: 'A6-L', htmlData: '<div>{{firstname}}</div>' };

const setup = (path: string) => renderWithSession(templateRoutes, path, session);

beforeEach(() => window.localStorage.setItem(STORAGE_KEYS.adminToken, 'tok'));
afterEach(() => vi.unstubAllGlobals());

describe('template list', () => {
  it('has the mail and accreditation tabs, and Add goes to the create route of the open tab', async () => {
    mockAdminApi({
      'GET template': [
        { type: 'mail', items: [mail] },
        { type: 'accreditation', items: [badge] },
      ],
      'GET mail-template/default': { html: '<p>Sample {{firstname}}</p>' },
    });
    const { user, router } = setup('/template');

    const mailRow = await screen.findByRole('row', { name: /Welcome/ });
    expect(within(mailRow).getByText(t('mailTemplate.type1'))).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: t('template.tabMail') })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('link', { name: t('basics.add') })).toHaveAttribute('href', '/mail-template/create');

    await user.click(screen.getByRole('tab', { name: t('template.tabAccreditation') }));
    const badgeRow = await screen.findByRole('row', { name: /Badge A6/ });
    expect(within(badgeRow).getByText(t('template.landscape', { size: 'A6' }))).toBeInTheDocument();
    expect(screen.getByRole('link', { name: t('basics.add') })).toHaveAttribute('href', '/template/create');

    await user.click(screen.getByRole('link', { name: t('basics.add') }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/template/create'));
    expect(await screen.findByText(t('template.placeholders'))).toBeInTheDocument();
    expect(screen.getByText('{{smartLink}}')).toBeInTheDocument();

    // back on the list with the mail tab open, Add creates a mail template with the sample body
    await router.navigate('/template?tab=mail');
    await user.click(await screen.findByRole('link', { name: t('basics.add') }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/mail-template/create'));
    expect(await screen.findByLabelText(t('mailTemplate.html'))).toHaveValue('<p>Sample {{firstname}}</p>');
  });
});

describe('mail template form', () => {
  it('loads and saves every field, with the copy addresses list', async () => {
    const { calls } = mockAdminApi({
      'GET mail-template/3': mail,
      'PUT mail-template/3': { ...mail, mailCopy: ['office@example.com', 'press@example.com'] },
    });
    const { user } = setup('/mail-template/detail/3');
    expect(await screen.findByDisplayValue('Welcome to the festival')).toBeInTheDocument();
    expect(screen.getByRole('switch', { name: new RegExp(t('mailTemplate.withAccreditation')) })).toBeChecked();

    await user.click(screen.getByRole('button', { name: t('mailTemplate.addCopy') }));
    const second = screen.getByRole('textbox', { name: t('mailTemplate.copyAddress', { n: 2 }) });
    await user.type(second, 'not-an-email');
    await user.click(screen.getByRole('button', { name: t('basics.save') }));
    expect(await screen.findByText(t('basics.emailNotValid'))).toBeInTheDocument();
    expect(bodyOf(calls, 'PUT', 'mail-template/3')).toBeUndefined();

    await user.clear(second);
    await user.type(second, 'press@example.com');
    await user.click(screen.getByRole('button', { name: t('basics.save') }));
    await waitFor(() =>
      expect(bodyOf(calls, 'PUT', 'mail-template/3')).toEqual({
        name: 'Welcome',
        type: 1,
        subjectFrom: 'Welcome to the festival',
        withAccreditation: true,
        mailCopy: ['office@example.com', 'press@example.com'],
        html: '<p>Hi</p>',
        translations: {},
      }),
    );
    expect(await screen.findByText(t('mailTemplate.saved'))).toBeInTheDocument();
  });

  it('requires the subject', async () => {
    const { calls } = mockAdminApi({ 'GET mail-template/default': { html: '<p>x</p>' } });
    const { user } = setup('/mail-template/create');
    await user.type(await screen.findByRole('textbox', { name: new RegExp(t('basics.name')) }), 'New');
    await user.click(screen.getByRole('button', { name: t('basics.save') }));
    expect(await screen.findByText(t('basics.requireField'))).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });
});

describe('accreditation template form', () => {
  it('saves name, page size and html', async () => {
    const { calls } = mockAdminApi({ 'GET template/4': badge, 'PUT template/4': { ...badge, pageSize: 'A4' } });
    const { user } = setup('/template/detail/4');
    await user.click(
      await screen.findByLabelText(t('template.pageSize'), { exact: false, selector: 'input:not([type="hidden"])' }),
    );
    await user.click(
      within(await screen.findByRole('listbox')).getByRole('option', { name: t('template.portrait', { size: 'A4' }) }),
    );
    await user.click(screen.getByRole('button', { name: t('basics.save') }));
    await waitFor(() =>
      expect(bodyOf(calls, 'PUT', 'template/4')).toEqual({
        name: 'Badge A6',
        type: 1,
        pageSize: 'A4',
        htmlData: '<div>{{firstname}}</div>',
      }),
    );
  });
});
