import { screen, waitFor } from '@testing-library/react';
import { Outlet, type RouteObject } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { accreditationRow } from '../../../testing/fixtures';
import { jsonResponse, t } from '../../../testing/render';
import { mockAdminApi, renderWithSession, testSession } from '../../../testing/session';
import { accreditationDetailRoutes } from './routes';

/** The person's mail language on the accreditation form (issue 15): a select of the subject's languages. */
const text = (cs: string) => ({ cs, sk: '', en: '', de: '' });
const action = { id: 7, name: text('Fair'), multiDay: false, days: [], customField: [], extension: [] };
const person = accreditationRow(55, { actionId: 7, email: 'hans@example.com', language: 'de' });
const common = {
  'GET actual': { id: 1, lastAction: 7 },
  'GET action': [action],
  'GET action/7': action,
  'GET custom-field': [],
  'GET groups': [],
  'GET zone': [],
};
const routes: RouteObject[] = [{ path: 'accreditation', element: <Outlet />, children: accreditationDetailRoutes }];
const languageSelect = () => screen.findByRole('combobox', { name: t('accreditationDetail.language') });

afterEach(() => vi.unstubAllGlobals());

describe('the accreditation form’s mail language (issue 15)', () => {
  it('shows the stored language and saves the one chosen from the subject’s languages', async () => {
    const { calls } = mockAdminApi({
      ...common,
      'GET user/7/55': person,
      'PUT user/55': { ...person, language: 'en' },
    });
    const { user } = renderWithSession(routes, '/accreditation/detail/55', testSession({ multiLanguage: true }));
    const select = await languageSelect();
    expect(select).toHaveValue(t('lang.de'));
    await user.click(select);
    for (const lang of ['cs', 'sk', 'en', 'de'])
      expect(await screen.findByRole('option', { name: t(`lang.${lang}`) })).toBeInTheDocument();
    await user.click(screen.getByRole('option', { name: t('lang.en') }));
    await user.click(screen.getByRole('button', { name: t('basics.save') }));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'PUT' && c.path === 'user/55')?.body).toMatchObject({ language: 'en' }),
    );
  });

  it('offers Czech alone when the subject is not multi-language, and a new person starts in Czech', async () => {
    const { calls } = mockAdminApi({
      ...common,
      'POST user': accreditationRow(56, { actionId: 7 }),
      'GET user/7/56': accreditationRow(56, { actionId: 7 }),
    });
    const { user } = renderWithSession(routes, '/accreditation/create', testSession({ multiLanguage: false }));
    const select = await languageSelect();
    expect(select).toHaveValue(t('lang.cs'));
    await user.click(select);
    expect(await screen.findByRole('option', { name: t('lang.cs') })).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: t('lang.de') })).not.toBeInTheDocument();
    await user.keyboard('{Escape}');
    await user.type(screen.getByRole('textbox', { name: t('accreditationDetail.firstname') }), 'Jana');
    await user.type(screen.getByLabelText(t('accreditationDetail.lastname'), { exact: false }), 'Nová');
    await user.type(screen.getByLabelText(t('accreditationDetail.email'), { exact: false }), 'jana@example.com');
    await user.click(screen.getByRole('button', { name: t('basics.save') }));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'POST' && c.path === 'user')?.body).toMatchObject({ language: 'cs' }),
    );
  });

  it('shows the server’s refusal of a language on the select', async () => {
    mockAdminApi({
      ...common,
      'GET user/7/55': person,
      'PUT user/55': jsonResponse(
        {
          error: {
            code: 'VALIDATION_ERROR',
            message: 'invalid',
            details: { fields: [{ path: 'language', key: 'accreditation.languageInvalid' }] },
          },
        },
        400,
      ),
    });
    const { user } = renderWithSession(routes, '/accreditation/detail/55', testSession({ multiLanguage: true }));
    await user.click(await languageSelect());
    await user.click(await screen.findByRole('option', { name: t('lang.sk') }));
    await user.click(screen.getByRole('button', { name: t('basics.save') }));
    expect(await screen.findByText(t('accreditation.languageInvalid'))).toBeInTheDocument();
  });
});
