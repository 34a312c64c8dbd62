import path from 'node:path';
import { expect, test } from './axe';
import { adminLogin, provisionAdmin, useEnglish } from './support';

/**
 * Issue 3's journeys in the browser: a multi-day action with a user field whose days follow its
 * range, the unsaved-changes prompt on the action form, a group with zones, and an image uploaded,
 * cropped and renamed — everything surviving a reload.
 */
test.describe
  .serial('event set-up', () => {
    let admin: { email: string; password: string };
    test.beforeAll(async ({ request }) => {
      admin = await provisionAdmin(request, { multiLanguage: true });
    });
    test.beforeEach(async ({ page }) => {
      await useEnglish(page);
      await adminLogin(page, admin.email, admin.password);
    });

    test('a user field and a multi-day action whose days follow its range', async ({ page }) => {
      await page.goto('/custom-field/create');
      await page.getByRole('textbox', { name: 'Name', exact: true }).fill('tshirt');
      await page.getByRole('textbox', { name: 'Label in forms (Czech)' }).fill('Tričko');
      await page.getByRole('textbox', { name: 'Label in forms (English)' }).fill('T-shirt');
      await page.getByRole('combobox', { name: 'Type' }).click();
      await page.getByRole('option', { name: 'Single choice' }).click();
      await page.getByRole('button', { name: 'Add an option' }).click();
      await page.getByRole('textbox', { name: 'Option 1' }).fill('M');
      await page.getByRole('button', { name: 'Save' }).click();
      await expect(page.getByText('The custom field has been created')).toBeVisible();

      await page.goto('/action/create');
      await page.getByRole('textbox', { name: 'Name (Czech)' }).fill('Veletrh');
      await page.getByRole('textbox', { name: 'Name (English)' }).fill('Fair');
      await page.getByRole('combobox', { name: 'Add a custom field' }).click();
      await page.getByRole('option', { name: /tshirt/ }).click();
      await page.getByRole('checkbox', { name: 'Hidden on the web' }).check();
      await page.getByRole('textbox', { name: 'Default value' }).fill('M');

      await page.getByRole('tab', { name: 'Dates' }).click();
      await page.getByLabel('Start date').fill('2027-05-10T08:00');
      await page.getByLabel('End date').fill('2027-05-12T18:00');
      await page.keyboard.press('Escape'); // closes the date field's calendar
      await page.getByRole('switch', { name: 'Multi-day event' }).check({ force: true });
      const dayInputs = page.getByRole('textbox', { name: 'Name on the badge' });
      await expect(dayInputs).toHaveCount(3);
      await page.getByLabel('End date').fill('2027-05-11T18:00');
      await page.keyboard.press('Escape');
      await expect(dayInputs).toHaveCount(2);
      await page.keyboard.press('Control+s');
      await expect(page.getByText('The event has been created')).toBeVisible();
      await expect(page).toHaveURL(/\/action\/detail\/\d+/);

      await page.reload();
      await expect(page.getByRole('textbox', { name: 'Name (English)' })).toHaveValue('Fair');
      await expect(page.getByRole('textbox', { name: 'Default value' })).toHaveValue('M');
      await page.getByRole('tab', { name: 'Dates' }).click();
      await expect(dayInputs).toHaveCount(2);
      // Widen the range again: the removed day can be added back.
      await page.getByLabel('End date').fill('2027-05-12T18:00');
      await page.keyboard.press('Escape'); // closes the date field's calendar
      await page.getByRole('combobox', { name: 'Add a day' }).click();
      await page.getByRole('option').first().click();
      await expect(dayInputs).toHaveCount(3);
    });

    test('leaving the action form with unsaved changes asks first', async ({ page }) => {
      await page.goto('/action');
      await page.getByRole('row', { name: /Fair/ }).dblclick();
      await expect(page).toHaveURL(/\/action\/detail\/\d+/);
      await page.getByRole('textbox', { name: 'Name (English)' }).fill('Trade fair');
      await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Gallery' }).click();
      const dialog = page.getByRole('dialog', { name: 'Unsaved changes' });
      await expect(dialog).toBeVisible();
      await dialog.getByRole('button', { name: 'Stay' }).click();
      await expect(page.getByRole('textbox', { name: 'Name (English)' })).toHaveValue('Trade fair');
    });

    test('a zone and a group with that zone', async ({ page }) => {
      await page.goto('/zone/create');
      await page.getByRole('textbox', { name: 'Name', exact: true }).fill('VIP');
      await page.getByRole('textbox', { name: 'Name on the badge' }).fill('V');
      await page.getByRole('combobox', { name: 'Event' }).click();
      await page.getByRole('option', { name: 'Fair' }).click();
      await page.getByRole('button', { name: 'Save' }).click();
      await expect(page.getByText('The zone has been created')).toBeVisible();

      await page.goto('/groups/create');
      await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Press');
      await page.getByRole('combobox', { name: 'Event' }).click();
      await page.getByRole('option', { name: 'Fair' }).click();
      await page.getByRole('combobox', { name: 'Zones' }).click();
      await page.getByRole('option', { name: 'VIP' }).click();
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: 'Save' }).click();
      await expect(page.getByText('The group has been created')).toBeVisible();

      await page.reload();
      await expect(page.getByRole('textbox', { name: 'Name', exact: true })).toHaveValue('Press');
      await expect(page.getByText('VIP').first()).toBeVisible();
      await page.goto('/groups');
      await page.getByRole('tab', { name: 'Fair' }).click();
      await expect(page.getByRole('row', { name: /Press/ })).toBeVisible();
    });

    test('an image uploaded, cropped, rotated and renamed', async ({ page }) => {
      await page.goto('/gallery/add');
      await page.locator('input[type=file]').setInputFiles(path.join(import.meta.dirname, '../fixtures/logo.png'));
      await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Fair logo');
      await page.getByRole('button', { name: 'Save' }).click();
      await expect(page.getByText('The image has been uploaded')).toBeVisible();
      await expect(page).toHaveURL(/\/gallery\/detail\/\d+/);

      await page.getByRole('textbox', { name: 'Width' }).fill('30');
      await page.getByRole('textbox', { name: 'Height' }).fill('20');
      await page.getByRole('button', { name: 'Crop', exact: true }).click();
      await page.getByRole('button', { name: 'Rotate right' }).click();
      await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Fair logo cropped');
      await page.getByRole('button', { name: 'Save' }).click();
      await expect(page.getByText('The image has been saved')).toBeVisible();

      await page.reload();
      await expect(page.getByRole('textbox', { name: 'Name', exact: true })).toHaveValue('Fair logo cropped');
      await expect(page.getByText('Dimensions: 20×30')).toBeVisible();
      await expect(page.getByText('Version: 2')).toBeVisible();
      await page.goto('/gallery');
      await expect(page.getByText('Fair logo cropped')).toBeVisible();
    });
  });
