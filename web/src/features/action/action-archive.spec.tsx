import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ActionDto } from '../../api/action';
import { t } from '../../testing/render';
import { mockAdminApi, renderWithSession } from '../../testing/session';
import { actionFormValues } from './action-form-values';
import { actionRoutes } from './routes';
import { ActionSwitcher } from './use-current-action';

const text = (cs: string) => ({ cs, sk: '', en: '', de: '' });
const ARCHIVED_AT = '2026-11-25T10:00:00.000Z';

function actionDto(id: number, name: string, archivedAt: string | null = null): ActionDto {
  const values = actionFormValues();
  return {
    ...values,
    id,
    name: text(name),
    previewData: values.previewData as unknown as ActionDto['previewData'],
    extension: [],
    dateCreate: '2026-01-01T10:00:00.000Z',
    archivedAt,
  } as ActionDto;
}

afterEach(() => vi.unstubAllGlobals());

describe('archived events (issue 15)', () => {
  it('the top bar starts at the first event in use and offers no archived one', async () => {
    mockAdminApi({
      'GET actual': { id: 1, lastAction: null },
      'GET action': [actionDto(1, 'Loni', ARCHIVED_AT), actionDto(2, 'Letos')],
    });
    const { user } = renderWithSession([{ path: 'switcher', element: <ActionSwitcher /> }], '/switcher');
    const select = await screen.findByRole('combobox', { name: t('action.current') });
    await waitFor(() => expect(select).toHaveValue('Letos'));
    await user.click(select);
    const options = within(await screen.findByRole('listbox')).getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['Letos']);
  });

  it('keeps an archived event that is the current one, to work with its people', async () => {
    mockAdminApi({
      'GET actual': { id: 1, lastAction: 1 },
      'GET action': [actionDto(1, 'Loni', ARCHIVED_AT), actionDto(2, 'Letos')],
    });
    const { user } = renderWithSession([{ path: 'switcher', element: <ActionSwitcher /> }], '/switcher');
    const select = await screen.findByRole('combobox', { name: t('action.current') });
    await waitFor(() => expect(select).toHaveValue('Loni'));
    await user.click(select);
    const options = within(await screen.findByRole('listbox')).getAllByRole('option');
    expect(options.map((o) => o.textContent).sort()).toEqual(['Letos', 'Loni']);
  });

  it('the event list hides archived events until "Show archived" is on', async () => {
    mockAdminApi({ 'GET action': [actionDto(1, 'Loni', ARCHIVED_AT), actionDto(2, 'Letos')] });
    const { user } = renderWithSession(actionRoutes, '/action');
    expect(await screen.findByText('Letos')).toBeInTheDocument();
    expect(screen.queryByText('Loni')).not.toBeInTheDocument();
    await user.click(screen.getByRole('switch', { name: t('recordArchive.showArchived') }));
    expect(await screen.findByText('Loni')).toBeInTheDocument();
    expect(screen.getByText(t('recordArchive.archived'))).toBeInTheDocument();
  });
});
