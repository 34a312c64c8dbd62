import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from './axe';
import bwipjs from 'bwip-js';
import ExcelJS from 'exceljs';
import yauzl from 'yauzl';
import { adminApi, adminLogin, provisionAdmin, useEnglish } from './support';

const LOGO = path.join(import.meta.dirname, '../fixtures/logo.png');

/**
 * A video for Chromium's fake camera: a QR code of `text`, black on white, as raw YUV 4:2:0 frames
 * (the .y4m format `--use-file-for-fake-video-capture` plays in a loop).
 */
function qrVideo(text: string): string {
  const [{ pixs, pixx, pixy }] = bwipjs.raw({ bcid: 'qrcode', text }) as {
    pixs: number[];
    pixx: number;
    pixy: number;
  }[];
  const width = 640;
  const height = 480;
  const scale = 12;
  const left = Math.floor((width - pixx * scale) / 2);
  const top = Math.floor((height - pixy * scale) / 2);
  const luma = Buffer.alloc(width * height, 235);
  for (let y = 0; y < pixy * scale; y++)
    for (let x = 0; x < pixx * scale; x++)
      if (pixs[Math.floor(y / scale) * pixx + Math.floor(x / scale)]) luma[(top + y) * width + left + x] = 16;
  const chroma = Buffer.alloc((width / 2) * (height / 2) * 2, 128);
  const frame = Buffer.concat([Buffer.from('FRAME\n'), luma, chroma]);
  const file = path.join(os.tmpdir(), `accredo-qr-${process.pid}.y4m`);
  fs.writeFileSync(
    file,
    Buffer.concat([Buffer.from(`YUV4MPEG2 W${width} H${height} F10:1 Ip A1:1 C420jpeg\n`), ...Array(10).fill(frame)]),
  );
  return file;
}
const SCAN_CODE = 'PHOTOSCAN0001';

// Chromium's fake camera (for the camera journeys; harmless for the others), fed with a QR code.
test.use({
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-video-capture=${qrVideo(SCAN_CODE)}`,
    ],
  },
});

/** Issue 4 in the browser: a sheet naming photos, the photos paired on the import page, and the photo export. */
test.describe
  .serial('photos', () => {
    let admin: { email: string; password: string };
    let actionId: number;
    test.beforeAll(async ({ request }) => {
      admin = await provisionAdmin(request, { multiLanguage: true });
      const { post } = await adminApi(request, admin);
      actionId = (await post('action', { name: { cs: 'Fotky', en: 'Photo day' } })).id;
    });
    test.beforeEach(async ({ page }) => {
      await useEnglish(page);
      await adminLogin(page, admin.email, admin.password);
    });

    test('import a sheet with a photo column, then upload the photos and see them paired', async ({
      page,
      request,
    }, testInfo) => {
      const template = await (await adminApi(request, admin)).get(`user/import/template/${actionId}`);
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load((await template.body()) as never);
      const header = (wb.worksheets[0].getRow(1).values as unknown[]).slice(1);
      // The template speaks the admin user's language (Czech for a new account).
      // the photo column, then the person's language (issue 15)
      expect(header.at(-2)).toBe('Fotografie (název souboru)');
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
      // The list's avatars are named "Photo: …" too: wait for the detail before looking for its photo.
      await expect(page).toHaveURL(/\/accreditation\/detail\//);
      await expect(page.getByRole('img', { name: 'Photo', exact: true })).toBeVisible();
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

/** The webcam in a real browser: Chromium's fake camera shows a QR code (scanning) or its test picture. */
test.describe
  .serial('camera', () => {
    let admin: { email: string; password: string };
    test.beforeAll(async ({ request }) => {
      admin = await provisionAdmin(request, { multiLanguage: true });
      const api = await adminApi(request, admin);
      const action = await api.post('action', { name: { cs: 'Brána', en: 'Gate' } });
      const template = await api.get(`user/import/template/${action.id}`);
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load((await template.body()) as never);
      wb.worksheets[0].addRow(['Cyril', 'Skener', 'cyril@gate.test', '', '', SCAN_CODE]);
      const dataFile = `data:;base64,${Buffer.from(await wb.xlsx.writeBuffer()).toString('base64')}`;
      await api.post('user/import', { actionId: action.id, dataFile, zonesImportType: 1 });
    });
    test.beforeEach(async ({ page }) => {
      await useEnglish(page);
      await adminLogin(page, admin.email, admin.password);
    });

    test('the check page reads a QR code with the camera and opens the accreditation', async ({ page }) => {
      await page.goto('/accreditation/check');
      await page.getByRole('switch', { name: 'Scan with the camera' }).click();
      await expect(page).toHaveURL(new RegExp(`/accreditation/check/${SCAN_CODE}$`), { timeout: 20_000 });
      await expect(page.getByRole('textbox', { name: 'First name' })).toHaveValue('Cyril');
    });

    test('a webcam photo becomes the photo of a new accreditation', async ({ page }) => {
      await page.goto('/accreditation/create');
      await page.getByRole('textbox', { name: 'First name' }).fill('Dora');
      await page.getByRole('textbox', { name: 'Last name' }).fill('Kamera');
      await page.getByRole('textbox', { name: 'E-mail' }).fill('dora@gate.test');
      await page.getByRole('button', { name: 'Take with the camera' }).click();
      await page.getByRole('button', { name: 'Take the photo' }).click();
      await page.getByRole('button', { name: 'Use this photo' }).click();
      await expect(page.getByRole('img', { name: 'Photo' })).toHaveAttribute('src', /^data:image\/png;base64,/);
      await page.getByRole('button', { name: 'Save' }).click();
      await expect(page).toHaveURL(/\/accreditation\/detail\/\d+$/);
      await expect(page.getByRole('img', { name: 'Photo' })).toHaveAttribute('src', /^\/api\/file\/.+\.png$/);
    });
  });
