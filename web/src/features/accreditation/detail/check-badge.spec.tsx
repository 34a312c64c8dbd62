import { screen, waitFor } from '@testing-library/react';
import { Outlet, type RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { accreditationRow } from '../../../testing/fixtures';
import { t } from '../../../testing/render';
import { mockAdminApi, renderWithSession } from '../../../testing/session';
import { accreditationCheckRoutes } from './routes';

const routes: RouteObject[] = [
  {
    path: 'accreditation',
    element: <Outlet />,
    children: [{ path: 'check', element: <Outlet />, children: accreditationCheckRoutes }],
  },
];

const person = accreditationRow(55, { firstname: 'Jana', lastname: 'Nováková', bc: 'ABC123' });
const checked = (code: string, version: number, superseded: boolean) => ({
  ...person,
  badgeVersion: 2,
  badgeCode: 'ABC123-2',
  badgeReplacedAt: '2026-11-22T10:00:00.000Z',
  checked: { code, version, superseded },
});

const action = { id: 7, name: { cs: 'Fest', sk: '', en: '', de: '' }, days: [], customField: [] };
/** what the person's editor loads */
const editor = {
  'GET actual': { id: 1, lastAction: 7 },
  'GET action': [action],
  'GET action/7': action,
  'GET custom-field': [],
  'GET groups': [],
  'GET zone': [],
};

describe('checking a badge that a reprint replaced (issue 13)', () => {
  it('a typed versioned code opens the person under that code and says the badge is superseded', async () => {
    const { calls } = mockAdminApi({ ...editor, 'GET user/check/ABC123-1': checked('ABC123-1', 1, true) });
    const { user, router } = renderWithSession(routes, '/accreditation/check');
    await user.type(await screen.findByLabelText(t('accreditationDetail.code')), 'ABC123-1{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/accreditation/check/ABC123-1'));
    const title = await screen.findByText(t('accreditationDetail.badgeSupersededTitle'));
    const alert = title.closest('[role="alert"]');
    expect(alert).toHaveTextContent(
      t('accreditationDetail.badgeSuperseded', { version: 1, current: 2, code: 'ABC123-2' }),
    );
    expect(calls.filter((c) => c.path === 'user/check/ABC123-1').length).toBeGreaterThanOrEqual(1);
  });

  it('the valid badge shows no warning', async () => {
    mockAdminApi({ ...editor, 'GET user/check/ABC123-2': checked('ABC123-2', 2, false) });
    renderWithSession(routes, '/accreditation/check/ABC123-2');
    // the person's editor opened, without the superseded alert
    expect(await screen.findByDisplayValue('Jana')).toBeInTheDocument();
    expect(screen.queryByText(t('accreditationDetail.badgeSupersededTitle'))).toBeNull();
    // the barcode field says which code the valid badge carries
    const prefix = t('accreditationDetail.badgeValid', { code: 'ABC123-2', version: 2, date: 'DATE' }).split('DATE')[0];
    const escaped = prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    expect(screen.getByLabelText(t('accreditationDetail.bc'))).toHaveAccessibleDescription(new RegExp(`^${escaped}`));
  });
});
