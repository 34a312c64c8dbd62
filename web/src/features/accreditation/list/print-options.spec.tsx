import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { accreditationRow } from '../../../testing/fixtures';
import { jsonResponse, t } from '../../../testing/render';
import { mockAdminApi, renderWithSession } from '../../../testing/session';
import { accreditationListRoute } from './routes';

const text = (cs: string) => ({ cs, sk: '', en: '', de: '' });
const base = {
  'GET actual': { id: 1, lastAction: 7 },
  'GET action': [{ id: 7, name: text('Summer fest'), days: [] }],
  'GET groups': [],
  'GET zone': [],
  'POST user/all': {
    paged: { data: [1, 2].map((id) => accreditationRow(id, { bc: `BC${id}` })), max: 2, customField: [] },
  },
};
const badges = '<!DOCTYPE html><html><head><title>Badges</title></head><body><h1>First1</h1></body></html>';

const rowOf = (id: number) => screen.getByRole('row', { name: new RegExp(`p${id}@example\\.com`) });

beforeEach(() => {
  window.localStorage.clear();
  vi.stubGlobal(
    'open',
    vi.fn(() => null),
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
  for (const frame of document.querySelectorAll('iframe')) frame.remove();
});

describe('print with options: replace the old badge (issue 13)', () => {
  async function openOptions() {
    const api = mockAdminApi({
      ...base,
      'POST user/print': jsonResponse({ data: badges, fileName: 'badges.html', error: [], printed: 1 }),
    });
    const view = renderWithSession([{ path: 'accreditation', children: [accreditationListRoute] }], '/accreditation');
    await screen.findByText('p1@example.com');
    await view.user.click(rowOf(1));
    await view.user.click(screen.getByRole('button', { name: t('basics.options') }));
    await view.user.click(await screen.findByRole('menuitem', { name: t('templateEngine.printOptions') }));
    const dialog = await screen.findByRole('dialog', { name: t('templateEngine.printOptionsTitle') });
    return { ...api, ...view, dialog };
  }

  it('explains the choice, and with it checked prints with replace: true', async () => {
    const { calls, user, dialog } = await openOptions();
    expect(within(dialog).getByText(t('templateEngine.printOptionsCount', { count: 1 }))).toBeInTheDocument();
    const box = within(dialog).getByRole('checkbox', { name: t('templateEngine.replaceBadge') });
    expect(box).not.toBeChecked();
    // the explanation is the checkbox's description, read with it
    expect(box).toHaveAccessibleDescription(t('templateEngine.replaceBadgeHint'));
    await user.click(box);
    await user.click(within(dialog).getByRole('button', { name: t('templateEngine.print') }));
    await waitFor(() => expect(calls.find((c) => c.path === 'user/print')).toBeDefined());
    expect(calls.find((c) => c.path === 'user/print')?.body).toMatchObject({
      actionId: 7,
      userId: [1],
      type: 'html',
      replace: true,
    });
    await waitFor(() => expect(document.querySelector('iframe[data-accredo-print]')).not.toBeNull());
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: t('templateEngine.printOptionsTitle') })).not.toBeInTheDocument(),
    );
  });

  it('left unchecked it is an ordinary reprint: no replace is sent; cancel sends nothing', async () => {
    const { calls, user, dialog } = await openOptions();
    await user.click(within(dialog).getByRole('button', { name: t('basics.cancel') }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: t('templateEngine.printOptionsTitle') })).not.toBeInTheDocument(),
    );
    expect(calls.find((c) => c.path === 'user/print')).toBeUndefined();

    await user.click(screen.getByRole('button', { name: t('basics.options') }));
    await user.click(await screen.findByRole('menuitem', { name: t('templateEngine.printOptions') }));
    const again = await screen.findByRole('dialog', { name: t('templateEngine.printOptionsTitle') });
    expect(within(again).getByRole('checkbox', { name: t('templateEngine.replaceBadge') })).not.toBeChecked();
    await user.click(within(again).getByRole('button', { name: t('templateEngine.print') }));
    await waitFor(() => expect(calls.find((c) => c.path === 'user/print')).toBeDefined());
    const body = calls.find((c) => c.path === 'user/print')?.body as Record<string, unknown>;
    expect(body).toMatchObject({ userId: [1], type: 'html' });
    expect(body).not.toHaveProperty('replace');
  });
});
