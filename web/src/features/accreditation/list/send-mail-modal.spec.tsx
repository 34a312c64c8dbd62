import { buildRights, type Session } from '@accredo/domain';
import { notifications } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, t } from '../../../testing/render';
import { mockAdminApi, renderWithSession, testSession } from '../../../testing/session';
import { accreditationListRoute } from './routes';
import { accreditationRow } from '../../../testing/fixtures';

const text = (cs: string) => ({ cs, sk: '', en: '', de: '' });

const row = (id: number) => accreditationRow(id);

const api = (extra: Record<string, unknown> = {}) =>
  mockAdminApi({
    'GET actual': { id: 1, lastAction: 7 },
    'GET action': [{ id: 7, name: text('Summer fest'), days: [] }],
    'GET groups': [],
    'GET zone': [],
    'POST user/all': { paged: { data: [row(1), row(2), row(3)], max: 3, customField: [] } },
    'GET mail-template': [
      {
        id: 11,
        name: 'After registration',
        type: 1,
        subjectFrom: 'Thanks',
        withAccreditation: false,
        mailCopy: [],
        html: '',
      },
      { id: 12, name: 'Invitation', type: 2, subjectFrom: 'Come', withAccreditation: true, mailCopy: [], html: '' },
    ],
    ...extra,
  });

function renderList(session: Session = testSession()) {
  return renderWithSession([{ path: 'accreditation', children: [accreditationListRoute] }], '/accreditation', session);
}

async function openSendMail(user: ReturnType<typeof renderList>['user']) {
  await user.click(screen.getByRole('button', { name: t('basics.options') }));
  await user.click(await screen.findByRole('menuitem', { name: t('mail.send.menu') }));
  return screen.findByRole('dialog', { name: t('mail.send.title') });
}

const sendCalls = (calls: ReturnType<typeof api>['calls']) => calls.filter((c) => c.path === 'email/send');

beforeEach(() => window.localStorage.clear());
afterEach(() => {
  vi.unstubAllGlobals();
  notifications.clean();
});

describe('send mail from the accreditation list', () => {
  it('asks to choose users first when nothing is selected', async () => {
    const { calls } = api();
    const { user } = renderList();
    await screen.findByText('p1@example.com');
    const dialog = await openSendMail(user);
    expect(within(dialog).getByRole('alert')).toHaveTextContent(t('accreditation.chooseUsers'));
    expect(calls.some((c) => c.path === 'mail-template')).toBe(false);
  });

  it('offers only templates from admin, needs one, and sends for the selection with the count and per-user errors', async () => {
    const { calls } = api({ 'POST email/send': { queued: 1, error: [{ user: 2, error: 'NO_EMAIL' }] } });
    const { user } = renderList();
    await screen.findByText('p1@example.com');
    await user.click(screen.getByRole('row', { name: /p1@example\.com/ }));
    // shift-click adds the range
    await user.keyboard('{Shift>}');
    await user.click(screen.getByRole('row', { name: /p2@example\.com/ }));
    await user.keyboard('{/Shift}');
    const dialog = await openSendMail(user);
    expect(within(dialog).getByText(t('mail.send.recipients', { count: 2 }))).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: t('mail.send.submit') }));
    expect(await within(dialog).findByText(t('mail.chooseTemplate'))).toBeInTheDocument();
    expect(sendCalls(calls)).toHaveLength(0);

    await user.click(within(dialog).getByRole('combobox', { name: t('mail.send.template') }));
    expect(screen.queryByRole('option', { name: 'After registration' })).not.toBeInTheDocument();
    await user.click(await screen.findByRole('option', { name: 'Invitation' }));
    await user.click(within(dialog).getByRole('button', { name: t('mail.send.submit') }));

    await waitFor(() => expect(sendCalls(calls)).toHaveLength(1));
    expect(sendCalls(calls)[0].body).toEqual({
      actionId: 7,
      userIds: [1, 2],
      all: false,
      filterData: { text: null, groupId: null, zoneId: null, printed: null, customField: {} },
      mailTemplate: 12,
    });
    expect(await screen.findByText(t('mail.send.queued', { count: 1 }))).toBeInTheDocument();
    expect(screen.getByText(t('mail.send.notQueued'))).toBeInTheDocument();
    expect(
      screen.getByText(t('mail.userError', { user: 2, error: t('mail.userErrors.NO_EMAIL') })),
    ).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: t('mail.send.title') })).not.toBeInTheDocument());
  });

  it('sends for the whole filter with select-all', async () => {
    const { calls } = api({ 'POST email/send': { queued: 3, error: [] } });
    const { user } = renderList();
    await screen.findByText('p1@example.com');
    await user.click(screen.getByRole('checkbox', { name: t('accreditation.selectAll', { count: 3 }) }));
    const dialog = await openSendMail(user);
    expect(within(dialog).getByText(new RegExp(t('mail.send.allOfFilter')))).toBeInTheDocument();
    await user.click(within(dialog).getByRole('combobox', { name: t('mail.send.template') }));
    await user.click(await screen.findByRole('option', { name: 'Invitation' }));
    await user.click(within(dialog).getByRole('button', { name: t('mail.send.submit') }));
    await waitFor(() => expect(sendCalls(calls)).toHaveLength(1));
    expect(sendCalls(calls)[0].body).toMatchObject({ userIds: [], all: true, mailTemplate: 12 });
    expect(await screen.findByText(t('mail.send.queued', { count: 3 }))).toBeInTheDocument();
    expect(screen.queryByText(t('mail.send.notQueued'))).not.toBeInTheDocument();
  });

  it('says so when the send fails and keeps the modal open', async () => {
    const { calls } = api({
      'POST email/send': jsonResponse({ error: { code: 'NOT_FOUND', message: 'x' } }, 404),
    });
    const { user } = renderList();
    await screen.findByText('p1@example.com');
    await user.click(screen.getByRole('row', { name: /p3@example\.com/ }));
    const dialog = await openSendMail(user);
    await user.click(within(dialog).getByRole('combobox', { name: t('mail.send.template') }));
    await user.click(await screen.findByRole('option', { name: 'Invitation' }));
    await user.click(within(dialog).getByRole('button', { name: t('mail.send.submit') }));
    expect(await screen.findByText(t('errors.NOT_FOUND'))).toBeInTheDocument();
    expect(sendCalls(calls)).toHaveLength(1);
    expect(screen.getByRole('dialog', { name: t('mail.send.title') })).toBeInTheDocument();
  });

  it('shows no template message without templates from admin, and no menu entry without the right', async () => {
    api({ 'GET mail-template': [] });
    const { user, unmount } = renderList();
    await screen.findByText('p1@example.com');
    await user.click(screen.getByRole('row', { name: /p1@example\.com/ }));
    const dialog = await openSendMail(user);
    expect(await within(dialog).findByText(t('mail.send.noTemplates'))).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: t('mail.send.submit') })).toBeDisabled();
    unmount();

    api();
    const rights = buildRights(([page]) => page !== 'emailQueue');
    const limited = renderList({ ...testSession(), superuser: false, rights });
    await screen.findByText('p1@example.com');
    await limited.user.click(screen.getByRole('button', { name: t('basics.options') }));
    expect(screen.queryByRole('menuitem', { name: t('mail.send.menu') })).not.toBeInTheDocument();
  });
});
