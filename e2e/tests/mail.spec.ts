import fs from 'node:fs';
import path from 'node:path';
import { type Page } from '@playwright/test';
import { expect, test } from './axe';
import { DATA_DIR } from '../playwright.config';
import { adminApi, adminLogin, provisionAdmin, useEnglish } from './support';

/** The decoded text of the newest .eml in the outbox addressed to `to` (quoted-printable, UTF-8). */
function outboxMail(to: string): string | undefined {
  const outbox = path.join(DATA_DIR, 'outbox');
  if (!fs.existsSync(outbox)) return undefined;
  for (const file of fs.readdirSync(outbox).sort().reverse()) {
    const raw = fs.readFileSync(path.join(outbox, file), 'latin1');
    if (!new RegExp(`^To: .*${to.replace(/[.+]/g, '\\$&')}`, 'mi').test(raw)) continue;
    const bytes = raw
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return undefined;
}

async function register(page: Page, firstname: string, lastname: string, email: string) {
  await page.goto('/accreditation/create');
  await page.getByRole('textbox', { name: 'First name' }).fill(firstname);
  await page.getByRole('textbox', { name: 'Last name' }).fill(lastname);
  await page.getByRole('textbox', { name: 'E-mail' }).fill(email);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('The accreditation was created')).toBeVisible();
}

/** Issue 5 in the browser: a mail template, a mass mail on a filter, the dashboard watching it. */
test('an admin sends a mass mail to a filter and watches it on the dashboard', async ({ page, request }) => {
  const admin = await provisionAdmin(request, { multiLanguage: true });
  await (await adminApi(request, admin)).post('action', { name: { cs: 'Jarmark', en: 'Fair' } });

  await useEnglish(page);
  await adminLogin(page, admin.email, admin.password);

  // The mail template, in the template form.
  await page.goto('/mail-template/create');
  await page.getByRole('textbox', { name: 'Name' }).fill('Invitation');
  await page.getByRole('textbox', { name: 'Subject' }).fill('Invitation for {{firstname}}');
  await page
    .getByRole('textbox', { name: 'Mail body (HTML)' })
    .fill('<p>Dear {{firstname}} {{lastname}},</p><p>see you.</p>');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('The mail template has been created')).toBeVisible();
  await expect(page).toHaveURL(/\/mail-template\/detail\/\d+/);

  // Three people; the filter finds two.
  await register(page, 'Jana', 'Poslední & spol.', 'jana@fair.test');
  await register(page, 'Petr', 'Poslední & spol.', 'petr@fair.test');
  await register(page, 'Karel', 'Jiný', 'karel@fair.test');

  await page.goto('/accreditation');
  await expect(page.getByRole('row', { name: /Karel/ })).toBeVisible();
  await page.getByRole('button', { name: 'Filter', exact: true }).click();
  await page.getByRole('textbox', { name: 'Search text' }).fill('posled');
  await page.getByRole('button', { name: 'Apply filter' }).click();
  await expect(page.getByRole('row', { name: /Karel/ })).toHaveCount(0);
  await expect(page.getByRole('row', { name: /Jana/ })).toBeVisible();

  // Select-all, then the mass mail on the whole filter.
  await page.getByRole('checkbox', { name: 'Select all (2)' }).check();
  await page.getByRole('button', { name: 'Options' }).click();
  await page.getByRole('menuitem', { name: 'Send e-mail' }).click();
  const dialog = page.getByRole('dialog', { name: 'Send e-mail' });
  await expect(dialog.getByText('Recipients: 2')).toBeVisible();
  await dialog.getByRole('button', { name: 'Send' }).click();
  await expect(dialog.getByText('Choose a mail template')).toBeVisible();
  await dialog.getByRole('combobox', { name: 'Mail template' }).click();
  await page.getByRole('option', { name: 'Invitation' }).click();
  await dialog.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByText('E-mails queued for sending: 2')).toBeVisible();
  await expect(dialog).toBeHidden();

  // The dashboard counts them (sent at once: the worker is idle), besides the admin's own
  // verification mail of the subject.
  await page.getByRole('link', { name: 'Dashboard' }).first().click();
  await expect(async () => {
    await page.reload();
    await expect(page.getByRole('link', { name: 'E-mails sent 3' })).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await expect(page.getByRole('link', { name: 'E-mails waiting 0' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'E-mails with errors 0' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Accreditations 3' })).toHaveAttribute('href', '/accreditation');

  // The person's mail, rendered with their name (escaped in the HTML part); the third got none.
  let mail: string | undefined;
  await expect.poll(() => (mail = outboxMail('jana@fair.test')), { timeout: 15_000 }).toBeTruthy();
  expect(mail).toMatch(/^Subject: Invitation for Jana/m);
  expect(mail).toContain('Dear Jana Poslední &amp; spol.,');
  expect(outboxMail('petr@fair.test')).toContain('Dear Petr Poslední &amp; spol.,');
  expect(outboxMail('karel@fair.test')).toBeUndefined();
});

/**
 * Issue 15 in the browser: a mail template with a German text (its language tabs), and visitors
 * who register online in English and in German. Each gets the confirmation in their language; a
 * language without its own text (English) gets the Czech text, with the event's name in English.
 */
test('visitors registering online in English and German get the confirmation in their language', async ({
  page,
  request,
}) => {
  const admin = await provisionAdmin(request, { multiLanguage: true });
  const api = await adminApi(request, admin);
  const action = await api.post('action', { name: { cs: 'Jarmark', en: 'Fair', de: 'Markt' } });

  await useEnglish(page);
  await adminLogin(page, admin.email, admin.password);
  await page.goto('/mail-template/create');
  await page.getByRole('textbox', { name: 'Name' }).fill('Confirmation');
  const czech = page.getByRole('tabpanel', { name: 'Czech (required)' });
  await czech.getByRole('textbox', { name: 'Subject' }).fill('Registrace: {{actionName}}');
  await czech.getByRole('textbox', { name: 'Mail body (HTML)' }).fill('<p>Dobrý den {{firstname}}, těšíme se.</p>');
  await page.getByRole('tab', { name: 'German' }).click();
  const german = page.getByRole('tabpanel', { name: 'German' });
  await german.getByRole('textbox', { name: 'Subject' }).fill('Anmeldung: {{actionName}}');
  await german.getByRole('textbox', { name: 'Mail body (HTML)' }).fill('<p>Guten Tag {{firstname}}, bis bald.</p>');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('The mail template has been created')).toBeVisible();
  await expect(page).toHaveURL(/\/mail-template\/detail\/\d+/);
  const mailTemplateId = Number(page.url().split('/').pop());
  const channel = await api.post('web-channel', { name: 'Visitors', actionId: action.id, mailTemplateId });

  // Jane registers in English (the form's language), Hans in German.
  await page.goto(`/app/online/${channel.channelKey}`);
  await page.getByRole('textbox', { name: 'First name' }).fill('Jane');
  await page.getByRole('textbox', { name: 'Last name' }).fill('Doe');
  await page.getByRole('textbox', { name: 'E-mail' }).fill('jane@language.test');
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page.getByRole('heading', { name: 'Thank you' })).toBeVisible();

  await page.goto(`/app/online/${channel.channelKey}`);
  await page.getByRole('combobox', { name: 'Language' }).click();
  await page.getByRole('option', { name: 'Deutsch' }).click();
  await page.getByRole('textbox', { name: 'Vorname' }).fill('Hans');
  await page.getByRole('textbox', { name: 'Nachname' }).fill('Müller');
  await page.getByRole('textbox', { name: 'E-Mail' }).fill('hans@language.test');
  await page.getByRole('button', { name: 'Registrieren' }).click();
  await expect(page.getByRole('heading', { name: 'Vielen Dank' })).toBeVisible();

  let hans: string | undefined;
  await expect.poll(() => (hans = outboxMail('hans@language.test')), { timeout: 15_000 }).toBeTruthy();
  expect(hans).toMatch(/^Subject: Anmeldung: Markt/m);
  expect(hans).toContain('Guten Tag Hans, bis bald.');
  let jane: string | undefined;
  await expect.poll(() => (jane = outboxMail('jane@language.test')), { timeout: 15_000 }).toBeTruthy();
  expect(jane).toMatch(/^Subject: Registrace: Fair/m);
  expect(jane).toContain('Dobrý den Jane, těšíme se.');
});
