import { type Page } from '@playwright/test';
import { expect, test } from './axe';
import { adminApi, adminLogin, provisionAdmin, useEnglish } from './support';

/** A date `days` from today as the wire's date-time (noon, so no time zone moves it across today). */
function dayFromToday(days: number): string {
  const date = new Date(Date.now() + days * 86_400_000);
  return `${date.toISOString().slice(0, 10)}T12:00`;
}

/** The channel key of the open detail page, read from its 'Open the form' link. */
async function channelKeyOnPage(page: Page): Promise<string> {
  const href = await page.getByRole('link', { name: 'Open the form', exact: true }).getAttribute('href');
  const key = href?.split('/').pop();
  expect(key).toBeTruthy();
  return decodeURIComponent(key as string);
}

/**
 * Issue 5 in the browser: an admin sets up a password channel and a code channel on the screens;
 * visitors register through both (one in German), a used-up code is refused, channels outside
 * their dates say so, and the admin finds the registrants in the accreditation list.
 */
test.describe
  .serial('online registration', () => {
    let admin: { email: string; password: string };
    let actionId: number;
    let passwordKey = '';
    let codeKey = '';

    test.beforeAll(async ({ request }) => {
      admin = await provisionAdmin(request, { multiLanguage: true });
      const { post } = await adminApi(request, admin);
      const field = await post('custom-field', {
        name: 'company',
        label: { cs: 'Firma', sk: 'Firma', en: 'Company', de: 'Unternehmen' },
        customFieldType: 1,
      });
      const action = await post('action', {
        name: { cs: 'Veletrh', en: 'Fair', de: 'Messe' },
        customField: [{ id: field.id, isMandatory: true }],
      });
      actionId = action.id;
    });

    test('the admin creates a password channel and a code channel', async ({ page }) => {
      await useEnglish(page);
      await adminLogin(page, admin.email, admin.password);

      await page.goto('/web-channel');
      await page.getByRole('link', { name: 'Add' }).click();
      await expect(page).toHaveURL(/\/web-channel\/create/);
      await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Public');
      await expect(page.getByRole('combobox', { name: 'Event' })).toHaveValue('Fair');
      await page.getByRole('tab', { name: 'Authorization' }).click();
      await page.getByRole('switch', { name: /Authorization required/ }).check({ force: true });
      await expect(page.getByRole('radio', { name: 'Password' })).toBeChecked();
      await page.getByRole('button', { name: 'Save' }).click();
      await expect(page.getByText('This field is required').first()).toBeVisible();
      await page.getByLabel('Password of the form').fill('open-sesame');
      await page.getByRole('button', { name: 'Save' }).click();
      await expect(page.getByText('The web channel has been created')).toBeVisible();
      await expect(page).toHaveURL(/\/web-channel\/detail\/\d+/);
      passwordKey = await channelKeyOnPage(page);
      await page.getByRole('tab', { name: 'Authorization' }).click();
      await expect(page.getByText('A password is set. Leave blank to keep it')).toBeVisible();

      await page.goto(`/web-channel/create?actionId=${actionId}`);
      await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Invited');
      await page.getByRole('tab', { name: 'Authorization' }).click();
      await page.getByRole('switch', { name: /Authorization required/ }).check({ force: true });
      await page.getByRole('radio', { name: 'External code' }).check();
      await page.getByRole('textbox', { name: /Uses of a new code/ }).fill('1');
      await page.getByRole('button', { name: 'Add a code' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('textbox', { name: /^Code/ }).fill('vip-001');
      await expect(dialog.getByRole('textbox', { name: /Number of uses/ })).toHaveValue('1');
      await dialog.getByRole('button', { name: 'Apply' }).click();
      await expect(page.getByRole('row', { name: /VIP-001/ })).toBeVisible();
      await page.keyboard.press('Control+s');
      await expect(page.getByText('The web channel has been created')).toBeVisible();
      await expect(page).toHaveURL(/\/web-channel\/detail\/\d+/);
      codeKey = await channelKeyOnPage(page);

      await page.goto('/web-channel');
      await expect(page.getByRole('row', { name: /Public/ })).toContainText('Password');
      await expect(page.getByRole('row', { name: /Invited/ })).toContainText('External code');
    });

    test('a visitor registers through the password channel', async ({ page }) => {
      await useEnglish(page);
      await page.goto(`/app/online/${passwordKey}`);
      await expect(page.getByRole('heading', { name: 'Fair' })).toBeVisible();
      await page.getByRole('textbox', { name: 'Password', exact: true }).fill('wrong-one');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect(page.getByRole('alert')).toContainText('Invalid sign-in details');
      await page.getByRole('textbox', { name: 'Password', exact: true }).fill('open-sesame');
      await page.getByRole('button', { name: 'Sign in' }).click();

      await page.getByRole('textbox', { name: 'First name' }).fill('Petra');
      await page.getByRole('textbox', { name: 'Last name' }).fill('Veselá');
      await page.getByRole('textbox', { name: 'E-mail' }).fill('petra@online.test');
      await page.getByRole('button', { name: 'Register' }).click();
      await expect(page.getByText('This field is required')).toBeVisible(); // the company is mandatory
      await page.getByRole('textbox', { name: 'Company' }).fill('ACME');
      await page.getByRole('button', { name: 'Register' }).click();
      await expect(page.getByText('You have been registered.')).toBeVisible();
      await expect(page.getByRole('button', { name: 'Register someone else' })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Log out' })).toBeVisible();

      // The same e-mail once more: refused with a clear message.
      await page.getByRole('button', { name: 'Register someone else' }).click();
      await page.getByRole('textbox', { name: 'First name' }).fill('Petra');
      await page.getByRole('textbox', { name: 'Last name' }).fill('Veselá');
      await page.getByRole('textbox', { name: 'E-mail' }).fill('petra@online.test');
      await page.getByRole('textbox', { name: 'Company' }).fill('ACME');
      await page.getByRole('button', { name: 'Register' }).click();
      await expect(page.getByRole('alert')).toContainText('This e-mail is already registered.');

      await page.getByRole('button', { name: 'Log out' }).click();
      await expect(page.getByText('You have been logged out')).toBeVisible();
      await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
    });

    test('a visitor registers through the code channel in German; the code is then used up', async ({ page }) => {
      await useEnglish(page);
      await page.goto(`/app/online/${codeKey}`);
      await page.getByRole('combobox', { name: 'Language' }).click();
      await page.getByRole('option', { name: 'Deutsch' }).click();
      await expect(page.getByRole('heading', { name: 'Messe' })).toBeVisible();
      await page.getByRole('textbox', { name: 'Code' }).fill('Vip-001');
      await page.getByRole('button', { name: 'Anmelden' }).click();

      await page.getByRole('textbox', { name: 'Vorname' }).fill('Klaus');
      await page.getByRole('textbox', { name: 'Nachname' }).fill('Becker');
      await page.getByRole('textbox', { name: 'E-Mail' }).fill('klaus@online.test');
      await page.getByRole('textbox', { name: 'Unternehmen' }).fill('Becker GmbH');
      await page.getByRole('button', { name: 'Registrieren' }).click();
      await expect(page.getByRole('heading', { name: 'Vielen Dank' })).toBeVisible();
      await expect(page.getByText('Sie wurden registriert.')).toBeVisible();

      // 'Register someone else' checks the sign-in again: the code of one use is used up.
      await page.getByRole('button', { name: 'Weitere Person anmelden' }).click();
      await expect(page.getByText('Der Code ist aufgebraucht')).toBeVisible();
      await page.getByRole('textbox', { name: 'Code' }).fill('VIP-001');
      await page.getByRole('button', { name: 'Anmelden' }).click();
      await expect(page.getByRole('alert')).toContainText('Der Code ist aufgebraucht');
    });

    test('channels outside their dates say so instead of showing the form', async ({ page, request }) => {
      const { post } = await adminApi(request, admin);
      const later = await post('web-channel', { name: 'Later', actionId, dateFrom: dayFromToday(1) });
      const over = await post('web-channel', {
        name: 'Over',
        actionId,
        dateFrom: dayFromToday(-3),
        dateTo: dayFromToday(-1),
      });
      await useEnglish(page);
      await page.goto(`/app/online/${later.channelKey}`);
      await expect(page.getByRole('alert')).toContainText('The registration form is not open yet.');
      await expect(page.getByRole('button', { name: 'Register' })).toHaveCount(0);
      await page.goto(`/app/online/${over.channelKey}`);
      await expect(page.getByRole('alert')).toContainText('The registration form is closed.');
      await page.goto('/app/online/no-such-channel');
      await expect(page.getByRole('alert')).toContainText('Check the channel code or link');
    });

    test('the admin sees the registrants in the accreditation list', async ({ page }) => {
      await useEnglish(page);
      await adminLogin(page, admin.email, admin.password);
      await page.goto('/accreditation');
      await expect(page.getByRole('combobox', { name: 'Current event' })).toHaveValue('Fair');
      await expect(page.getByRole('row', { name: /Petra/ })).toBeVisible();
      await expect(page.getByRole('row', { name: /Klaus/ })).toBeVisible();
      await expect(page.getByRole('row', { name: /Petra/ })).toHaveCount(1);

      // The code's usage log names the registrant.
      await page.goto('/web-channel');
      await page.getByRole('row', { name: /Invited/ }).dblclick();
      await page.getByRole('tab', { name: 'Authorization' }).click();
      const code = page.getByRole('row', { name: /VIP-001/ });
      await expect(code.getByRole('button', { name: 'Remove: VIP-001' })).toBeDisabled();
      await code.getByRole('button', { name: 'Usage log: VIP-001' }).click();
      await expect(page.getByRole('dialog').getByRole('cell', { name: 'klaus@online.test' })).toBeVisible();
    });

    test('on a phone the form reads in one column with 16 px fields and 44 px targets; the thank-you page sums it up', async ({
      page,
      request,
    }) => {
      const { post } = await adminApi(request, admin);
      const mail = await post('mail-template', { name: 'Welcome', subjectFrom: 'Welcome', html: '<p>Hello</p>' });
      const open = await post('web-channel', { name: 'Open', actionId, mailTemplateId: mail.id });
      await useEnglish(page);

      // Wide screen: two columns filled row by row, in the order of the page.
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.goto(`/app/online/${open.channelKey}`);
      const box = async (name: string) => {
        const b = await page.getByRole('textbox', { name, exact: true }).boundingBox();
        expect(b).not.toBeNull();
        return b as { x: number; y: number; width: number; height: number };
      };
      const [first, last, email] = [await box('First name'), await box('Last name'), await box('E-mail')];
      expect(Math.abs(first.y - last.y)).toBeLessThan(2);
      expect(last.x).toBeGreaterThan(first.x + first.width);
      expect(Math.abs(email.x - first.x)).toBeLessThan(2);
      expect(email.y).toBeGreaterThan(first.y + first.height);

      // Phone: one column, 16 px text in the fields (no zoom on iOS), 44 px touch targets.
      await page.setViewportSize({ width: 390, height: 844 });
      const [pFirst, pLast] = [await box('First name'), await box('Last name')];
      expect(Math.abs(pFirst.x - pLast.x)).toBeLessThan(2);
      expect(pLast.y).toBeGreaterThan(pFirst.y + pFirst.height);
      expect(pFirst.height).toBeGreaterThanOrEqual(44);
      const fontSize = await page
        .getByRole('textbox', { name: 'First name', exact: true })
        .evaluate((el) => getComputedStyle(el).fontSize);
      expect(fontSize).toBe('16px');
      const register = await page.getByRole('button', { name: 'Register' }).boundingBox();
      expect(register?.height ?? 0).toBeGreaterThanOrEqual(44);
      await expect(page.getByRole('main')).toBeVisible();
      await expect(page).toHaveTitle('Registration · Fair');

      await page.getByRole('textbox', { name: 'First name', exact: true }).fill('Eva');
      await page.getByRole('textbox', { name: 'Last name', exact: true }).fill('Malá');
      await page.getByRole('textbox', { name: 'E-mail', exact: true }).fill('eva@online.test');
      await page.getByRole('textbox', { name: 'Company' }).fill('Malá s.r.o.');
      await page.getByRole('button', { name: 'Register' }).click();

      const thanks = page.getByRole('status');
      await expect(thanks.getByRole('heading', { name: 'Thank you' })).toBeVisible();
      await expect(page).toHaveTitle('Thank you · Fair');
      await expect(thanks.getByRole('row', { name: /Name/ })).toContainText('Eva Malá');
      await expect(thanks.getByRole('row', { name: /E-mail/ })).toContainText('eva@online.test');
      // only this visitor's data: nobody else registered through the form shows up
      await expect(thanks).not.toContainText('Petra');
      await expect(thanks).toContainText('A confirmation e-mail is on its way to eva@online.test.');
      const next = await thanks.getByRole('button', { name: 'Register someone else' }).boundingBox();
      expect(next?.height ?? 0).toBeGreaterThanOrEqual(44);
    });

    test('on a phone a group select, its options and a confirmation with its label are 44 px targets', async ({
      page,
      request,
    }) => {
      const { post } = await adminApi(request, admin);
      const expo = await post('action', {
        name: { cs: 'Expo', en: 'Expo' },
        checkingAttributes: [{ id: 'rules', label: { cs: 'Pravidla', en: 'I accept the rules' }, required: true }],
      });
      await post('groups', { name: 'Exhibitors', actionId: expo.id });
      const channel = await post('web-channel', { name: 'Expo', actionId: expo.id, viewGroups: true });
      await useEnglish(page);
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(`/app/online/${channel.channelKey}`);

      const label = page.locator('label', { hasText: 'I accept the rules' });
      expect((await label.boundingBox())?.height ?? 0).toBeGreaterThanOrEqual(44);
      const group = page.getByRole('combobox', { name: 'Group' });
      expect((await group.boundingBox())?.height ?? 0).toBeGreaterThanOrEqual(44);
      await group.click();
      const option = page.getByRole('option', { name: 'Exhibitors' });
      expect((await option.boundingBox())?.height ?? 0).toBeGreaterThanOrEqual(44);
      await option.click();

      await page.getByRole('textbox', { name: 'First name', exact: true }).fill('Ota');
      await page.getByRole('textbox', { name: 'Last name', exact: true }).fill('Dvořák');
      await page.getByRole('textbox', { name: 'E-mail', exact: true }).fill('ota@online.test');
      // a tap on the label ticks the box
      await label.click();
      await expect(page.getByRole('checkbox', { name: 'I accept the rules' })).toBeChecked();
      await page.getByRole('button', { name: 'Register' }).click();
      const thanks = page.getByRole('status');
      await expect(thanks.getByRole('row', { name: /Group/ })).toContainText('Exhibitors');
      // no mail template on this channel or action: no mail is promised
      await expect(thanks).not.toContainText('confirmation e-mail');
    });
  });
