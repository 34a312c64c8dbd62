import { buildRights } from '@accredo/domain';
import { notifications } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, t } from '../../testing/render';
import { mockAdminApi, renderWithSession, testSession } from '../../testing/session';
import { templateRoutes } from './routes';

const mail = {
  id: 3,
  name: 'Invitation',
  type: 2,
  subjectFrom: 'Welcome {{firstname}}',
  withAccreditation: true,
  mailCopy: [],
  html: '<p>Hi {{firstname}}</p>',
};

const renderForm = (session = testSession()) => renderWithSession(templateRoutes, '/mail-template/detail/3', session);

afterEach(() => {
  vi.unstubAllGlobals();
  notifications.clean();
});

describe('mail template: send test', () => {
  it('checks the address, sends the test and does not save the template', async () => {
    const { calls } = mockAdminApi({
      'GET mail-template/3': mail,
      'POST mail-template/3/test': { queued: 1, email: 'tester@example.com' },
    });
    const { user } = renderForm();
    await user.click(await screen.findByRole('button', { name: t('mail.test.button') }));
    const dialog = await screen.findByRole('dialog', { name: t('mail.test.title') });
    const input = within(dialog).getByLabelText(new RegExp(t('mail.test.email')));

    await user.click(within(dialog).getByRole('button', { name: t('mail.test.submit') }));
    expect(await within(dialog).findByText(t('basics.requireField'))).toBeInTheDocument();
    await user.type(input, 'not-an-address');
    await user.click(within(dialog).getByRole('button', { name: t('mail.test.submit') }));
    expect(await within(dialog).findByText(t('basics.emailNotValid'))).toBeInTheDocument();
    expect(calls.some((c) => c.path === 'mail-template/3/test')).toBe(false);

    await user.clear(input);
    // Enter in the field sends
    await user.type(input, 'Tester@Example.com{Enter}');
    await waitFor(() => expect(calls.filter((c) => c.path === 'mail-template/3/test')).toHaveLength(1));
    expect(calls.find((c) => c.path === 'mail-template/3/test')?.body).toEqual({ email: 'tester@example.com' });
    expect(await screen.findByText(t('mail.test.queued', { email: 'tester@example.com' }))).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: t('mail.test.title') })).not.toBeInTheDocument());
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
  });

  it("shows the template's error from the server", async () => {
    mockAdminApi({
      'GET mail-template/3': mail,
      'POST mail-template/3/test': jsonResponse(
        { error: { code: 'TEMPLATE_SYNTAX_ERROR', message: 'x', details: { reason: 'line 1', line: 1 } } },
        400,
      ),
    });
    const { user } = renderForm();
    await user.click(await screen.findByRole('button', { name: t('mail.test.button') }));
    const dialog = await screen.findByRole('dialog', { name: t('mail.test.title') });
    await user.type(within(dialog).getByLabelText(new RegExp(t('mail.test.email'))), 'a@example.com');
    await user.click(within(dialog).getByRole('button', { name: t('mail.test.submit') }));
    expect(await screen.findByText(t('errors.TEMPLATE_SYNTAX_ERROR'))).toBeInTheDocument();
  });

  it('is not offered without the right or on a new template', async () => {
    mockAdminApi({ 'GET mail-template/3': mail, 'GET mail-template/default': { html: '' } });
    const rights = buildRights(([page, action]) => page === 'mailTemplate' && action !== 'testMailTemplate');
    const { unmount } = renderForm({ ...testSession(), superuser: false, rights });
    expect(await screen.findByDisplayValue('Invitation')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: t('mail.test.button') })).not.toBeInTheDocument();
    unmount();
    renderWithSession(templateRoutes, '/mail-template/create');
    expect(await screen.findByText(t('mailTemplate.create'))).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: t('mail.test.button') })).not.toBeInTheDocument();
  });
});
