import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import ExcelJS from 'exceljs';
import yauzl from 'yauzl';
import { adminLogin, provisionAdmin, useEnglish } from './support';

const LOGO = path.join(import.meta.dirname, '../fixtures/logo.png');

/** Issue 4 in the browser: a sheet naming photos, the photos paired on the import page, and the photo export. */
test.describe
  .serial('photos', () => {
    let admin: { email: string; password: string };
    let actionId: number;
    test.beforeAll(async ({ request }) => {
      admin = await provisionAdmin(request, { multiLanguage: true });
      const login = await request.post('/api/admin/v1/login', {
        data: { login: admin.email, password: admin.password },
      });
      const headers = { authorization: (await login.json()).data.token };
      const action = await request.post('/api/admin/v1/action', {
        headers,
        data: { name: { cs: 'Fotky', en: 'Photo day' } },
      });
      actionId = (await action.json()).data.id;
    });
    test.beforeEach(async ({ page }) => {
      await useEnglish(page);
      await adminLogin(page, admin.email, admin.password);
    });

    test('import a sheet with a photo column, then upload the photos and see them paired', async ({
      page,
      request,
    }, testInfo) => {
      const login = await request.post('/api/admin/v1/login', {
        data: { login: admin.email, password: admin.password },
      });
      const template = await request.get(`/api/admin/v1/user/import/template/${actionId}`, {
        headers: { authorization: (await login.json()).data.token },
      });
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load((await template.body()) as never);
      const header = (wb.worksheets[0].getRow(1).values as unknown[]).slice(1);
      // The template speaks the admin user's language (Czech for a new account).
      expect(header.at(-1)).toBe('Fotografie (název souboru)');
      wb.worksheets[0].addRow(['Anna', 'Veselá', 'anna@photos.test', '', '', '', 'anna.png']);
      wb.worksheets[0].addRow(['Bohdan', 'Malý', 'bohdan@photos.test', '', '', '', 'Bohdan.PNG']);
      const sheet = testInfo.outputPath('photos.xlsx');
      await wb.xlsx.writeFile(sheet);

      await page.goto('/accreditation/import');
      await page.locator('input[type=file]').setInputFiles(sheet);
      await page
        .getByRole('radio', { name: /Manually/ })
        .first()
        .check();
      await page.getByRole('button', { name: 'Import', exact: true }).click();
      await expect(page.getByText('Accreditations imported: 2').first()).toBeVisible();

      await page.getByRole('tab', { name: 'Photos' }).click();
      await expect(page).toHaveURL(/tab=images/);
      await expect(page.getByText('Accreditations waiting for their photo: 2')).toBeVisible();
      await page.getByRole('button', { name: 'Show the list' }).click();
      await expect(page.getByRole('cell', { name: 'Bohdan.PNG' })).toBeVisible();

      const anna = testInfo.outputPath('anna.png');
      const bohdan = testInfo.outputPath('bohdan.png');
      fs.copyFileSync(LOGO, anna);
      fs.copyFileSync(LOGO, bohdan);
      await page.locator('input[type=file]').setInputFiles([anna, bohdan]);
      await expect(page.getByText('Photos chosen: 2')).toBeVisible();
      await page.getByRole('button', { name: 'Upload the photos' }).click();

      await expect(page.getByText('Paired: 2')).toBeVisible();
      await expect(page.getByText('Not paired: 0')).toBeVisible();
      await expect(page.getByRole('row', { name: /anna\.png/ })).toContainText('Paired by the photo name: Anna Veselá');
      await expect(page.getByRole('row', { name: /bohdan\.png/ })).toContainText('Bohdan Malý');
      await expect(page.getByText('Accreditations waiting for their photo: 0')).toBeVisible();

      // The photo is now the accreditation's own.
      await page.goto('/accreditation');
      await page.getByRole('row', { name: /Anna/ }).dblclick();
      await expect(page.getByRole('img', { name: 'Photo' })).toBeVisible();
    });

    test('export the photos of the selection as a zip named after the action', async ({ page }) => {
      await page.goto('/accreditation');
      await page.getByRole('row', { name: /Anna/ }).click();
      await page.getByRole('button', { name: 'Options' }).click();
      const downloading = page.waitForEvent('download');
      await page.getByRole('menuitem', { name: 'Export photos' }).click();
      const download = await downloading;
      expect(download.suggestedFilename()).toBe(`photos-${actionId}.zip`);

      const zip = await yauzl.fromBufferPromise(fs.readFileSync(await download.path()), { lazyEntries: true });
      const names: string[] = [];
      for await (const entry of zip.eachEntry()) names.push(entry.fileName);
      expect(names).toEqual(['anna.png']);
    });
  });
