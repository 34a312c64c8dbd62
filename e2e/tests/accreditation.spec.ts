import path from 'node:path';
import { expect, test } from './axe';
import ExcelJS from 'exceljs';
import { adminApi, adminLogin, provisionAdmin, useEnglish } from './support';

/** Issue 4 in the browser: find people by filter in the current action and assign a group in bulk. */
test.describe
  .serial('accreditations', () => {
    let admin: { email: string; password: string };
    test.beforeAll(async ({ request }) => {
      admin = await provisionAdmin(request, { multiLanguage: true });
      const { post } = await adminApi(request, admin);
      const action = await post('action', { name: { cs: 'Festival', en: 'Festival' } });
      await post('groups', { name: 'Volunteers', actionId: action.id });
      for (const [firstname, lastname] of [
        ['Anna', 'Veselá'],
        ['Bohdan', 'Malý'],
        ['Cecílie', 'Horká'],
      ]) {
        await post('user', {
          actionId: action.id,
          firstname,
          lastname,
          email: `${firstname.toLowerCase()}@festival.test`,
        });
      }
    });
    test.beforeEach(async ({ page }) => {
      await useEnglish(page);
      await adminLogin(page, admin.email, admin.password);
    });

    test('find by filter and assign a group to the selection', async ({ page }) => {
      await page.goto('/accreditation');
      await expect(page.getByRole('combobox', { name: 'Current event' })).toHaveValue('Festival');
      await expect(page.getByRole('row', { name: /Bohdan/ })).toBeVisible();

      await page.getByRole('button', { name: 'Options' }).click();
      await page.getByRole('menuitem', { name: 'Open filter' }).click();
      await page.getByRole('textbox', { name: 'Search text' }).fill('anna');
      await page.getByRole('button', { name: 'Apply filter' }).click();
      await expect(page.getByRole('row', { name: /Anna/ })).toBeVisible();
      await expect(page.getByRole('row', { name: /Bohdan/ })).toHaveCount(0);

      await page.getByRole('row', { name: /Anna/ }).click();
      await page.getByRole('button', { name: 'Options' }).click();
      await page.getByRole('menuitem', { name: 'Assign group' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('combobox', { name: 'Groups' }).click();
      await page.getByRole('option', { name: 'Volunteers' }).click();
      await dialog.getByRole('combobox', { name: 'Groups' }).press('Tab');
      await dialog.getByRole('button', { name: 'Assign' }).click();
      await expect(page.getByText('Rows changed: 1')).toBeVisible();
      await expect(page.getByRole('row', { name: /Anna/ })).toContainText('Volunteers');

      // The filter is remembered for the action; 'show all' clears it.
      await page.reload();
      await expect(page.getByRole('row', { name: /Bohdan/ })).toHaveCount(0);
      await page.getByRole('button', { name: 'Show all' }).click();
      await expect(page.getByRole('row', { name: /Bohdan/ })).toBeVisible();
    });

    test('register a person with a photo, then find them by the code typed on the check page', async ({ page }) => {
      await page.goto('/accreditation/create');
      await page.getByRole('textbox', { name: 'First name' }).fill('Dana');
      await page.getByRole('textbox', { name: 'Last name' }).fill('Rychlá');
      await page.getByRole('textbox', { name: 'E-mail' }).fill('dana@festival.test');
      await page.locator('input[type=file]').setInputFiles(path.join(import.meta.dirname, '../fixtures/logo.png'));
      await page.getByRole('button', { name: 'Save' }).click();
      await expect(page.getByText('The accreditation was created')).toBeVisible();
      await expect(page).toHaveURL(/\/accreditation\/detail\/\d+/);
      const code = await page.getByRole('textbox', { name: 'Barcode' }).inputValue();
      expect(code).toMatch(/^[A-Z0-9]{16}$/);

      await page.goto('/accreditation/check');
      const input = page.getByRole('textbox', { name: 'Barcode or QR code' });
      await input.fill('NOSUCHCODE');
      await input.press('Enter');
      await expect(page.getByText('The code NOSUCHCODE was not found in the system')).toBeVisible();
      await input.fill(code);
      await input.press('Enter');
      await expect(page).toHaveURL(new RegExp(`/accreditation/check/${code}$`));
      await expect(page.getByRole('textbox', { name: 'First name' })).toHaveValue('Dana');
    });

    test('import a file with one bad row: the row error is shown and nothing is imported; then the fixed file', async ({
      page,
      request,
    }, testInfo) => {
      const api = await adminApi(request, admin);
      const actions = (await (await api.get('action')).json()).data;
      const template = await api.get(`user/import/template/${actions[0].id}`);
      const file = async (rows: string[][]) => {
        const wb = new ExcelJS.Workbook();
        await wb.xlsx.load((await template.body()) as never);
        for (const r of rows) wb.worksheets[0].addRow(r);
        const out = testInfo.outputPath(`import-${rows.length}-${Date.now()}.xlsx`);
        await wb.xlsx.writeFile(out);
        return out;
      };
      const good = ['Eva', 'Nová', 'eva@festival.test', 'Volunteers', '', ''];
      const bad = ['Filip', 'Bez', '', '', '', ''];

      await page.goto('/accreditation/import');
      await page.locator('input[type=file]').setInputFiles(await file([good, bad]));
      await page.getByRole('radio', { name: /From the group/ }).check();
      await page.getByRole('button', { name: 'Import', exact: true }).click();
      await expect(page.getByText('Row 3: the e-mail is empty')).toBeVisible();

      await page.locator('input[type=file]').setInputFiles(await file([good]));
      await page.getByRole('button', { name: 'Import', exact: true }).click();
      await expect(page.getByText('Accreditations imported: 1').first()).toBeVisible();
      await page.goto('/accreditation');
      await expect(page.getByRole('row', { name: /Eva/ })).toContainText('Volunteers');
      await expect(page.getByRole('row', { name: /Filip/ })).toHaveCount(0);
    });
  });
