import { buildRights, type Session } from '@accredo/domain';
import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '../../api/storage';
import { bodyOf, mockAdminApi } from '../../testing/mock-api';
import { t } from '../../testing/render';
import { renderWithSession } from '../../testing/session';
import { templateRoutes } from './routes';

/** The mail template editor's language tabs (issue 15): Czech required, the subject's other languages optional. */
const session = (multiLanguage: boolean): Session => ({
  token: 'tok',
  rights: buildRights(true),
  superuser: false,
  manageuser: false,
  subject: { id: 1, name: 'Demo', key: 'demo', multiLanguage, extensions: [], timeZone: 'Europe/Prague' },
});

const mail = {
  id: 3,
  name: 'Confirmation',
  type: 1,
  subjectFrom: 'Registrace',
  withAccreditation: false,
  mailCopy: [],
  html: '<p>Dobrý den</p>',
  translations: { de: { subjectFrom: 'Anmeldung', html: '<p>Guten Tag</p>' } },
};

beforeEach(() => window.localStorage.setItem(STORAGE_KEYS.adminToken, 'tok'));
afterEach(() => vi.unstubAllGlobals());

const panel = (lang: string) => screen.getByRole('tabpanel', { name: new RegExp(t(`lang.${lang}`)) });

describe('mail template languages', () => {
  it('has a tab per language of the subject, Czech required; a language with half a text is shown and refused', async () => {
    const { calls } = mockAdminApi({
      'GET mail-template/3': mail,
      'PUT mail-template/3': mail,
    });
    const { user } = renderWithSession(templateRoutes, '/mail-template/detail/3', session(true));
    const cs = await screen.findByRole('tab', { name: t('mailTemplate.languageRequired', { language: t('lang.cs') }) });
    expect(cs).toHaveAttribute('aria-selected', 'true');
    for (const lang of ['sk', 'en', 'de'])
      expect(screen.getByRole('tab', { name: t(`lang.${lang}`) })).toBeInTheDocument();
    expect(screen.getByDisplayValue('Registrace')).toBeInTheDocument();

    await user.click(screen.getByRole('tab', { name: t('lang.de') }));
    expect(screen.getByDisplayValue('Anmeldung')).toBeVisible();
    expect(screen.getByDisplayValue('<p>Guten Tag</p>')).toBeVisible();

    // English: a subject without a body is refused on the body, and the English tab opens to show it
    await user.click(screen.getByRole('tab', { name: t('lang.en') }));
    const en = panel('en');
    const [enSubject] = screen
      .getAllByRole('textbox', { name: t('mailTemplate.subjectFrom') })
      .filter((el) => en.contains(el));
    await user.type(enSubject, 'Registration');
    await user.click(cs);
    await user.click(screen.getByRole('button', { name: t('basics.save') }));
    await waitFor(() =>
      expect(screen.getByRole('tab', { name: t('lang.en') })).toHaveAttribute('aria-selected', 'true'),
    );
    expect(await screen.findByText(t('basics.requireField'))).toBeVisible();
    expect(bodyOf(calls, 'PUT', 'mail-template/3')).toBeUndefined();

    const [enBody] = screen.getAllByRole('textbox', { name: t('mailTemplate.html') }).filter((el) => en.contains(el));
    await user.type(enBody, '<p>Hello</p>');
    await user.click(screen.getByRole('button', { name: t('basics.save') }));
    await waitFor(() =>
      expect(bodyOf(calls, 'PUT', 'mail-template/3')).toMatchObject({
        subjectFrom: 'Registrace',
        html: '<p>Dobrý den</p>',
        translations: {
          de: { subjectFrom: 'Anmeldung', html: '<p>Guten Tag</p>' },
          en: { subjectFrom: 'Registration', html: '<p>Hello</p>' },
        },
      }),
    );
  });

  it('a subject in Czech alone shows no tabs and keeps the texts it does not show', async () => {
    const { calls } = mockAdminApi({ 'GET mail-template/3': mail, 'PUT mail-template/3': mail });
    const { user } = renderWithSession(templateRoutes, '/mail-template/detail/3', session(false));
    const subject = await screen.findByDisplayValue('Registrace');
    expect(screen.queryByRole('tab', { name: t('lang.de') })).not.toBeInTheDocument();
    expect(screen.queryByDisplayValue('Anmeldung')).not.toBeInTheDocument();
    await user.clear(subject);
    await user.type(subject, 'Registrace 2027');
    await user.click(screen.getByRole('button', { name: t('basics.save') }));
    await waitFor(() =>
      expect(bodyOf(calls, 'PUT', 'mail-template/3')).toMatchObject({
        subjectFrom: 'Registrace 2027',
        translations: { de: { subjectFrom: 'Anmeldung', html: '<p>Guten Tag</p>' } },
      }),
    );
  });
});
