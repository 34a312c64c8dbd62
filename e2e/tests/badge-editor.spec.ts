import { type Page } from '@playwright/test';
import { expect, test } from './axe';
import { PDFDocument } from 'pdf-lib';
import { adminApi, adminLogin, provisionAdmin, useEnglish } from './support';

/** 1 mm in PDF points */
const MM = 72 / 25.4;

/** Pages of a PDF and their sizes in mm (read with pdf-lib, independent of the browser). */
async function pdfPages(bytes: Uint8Array): Promise<[number, number][]> {
  const doc = await PDFDocument.load(bytes);
  return doc.getPages().map((p) => [Math.round(p.getWidth() / MM), Math.round(p.getHeight() / MM)]);
}

/** The bytes of the file a click downloads. */
async function downloaded(page: Page, click: () => Promise<void>): Promise<{ name: string; bytes: Uint8Array }> {
  const downloading = page.waitForEvent('download');
  await click();
  const download = await downloading;
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return { name: download.suggestedFilename(), bytes: new Uint8Array(Buffer.concat(chunks)) };
}

/**
 * Issue 13 in the browser: the badge editor with completion, validation marks and a live preview
 * that follows the text, its page size and HTML or PDF; then a PDF of a filter from the list.
 */
test.describe
  .serial('badge editor', () => {
    let admin: { email: string; password: string };
    let actionId: number;
    test.beforeAll(async ({ request }) => {
      admin = await provisionAdmin(request, { multiLanguage: true });
      const { post } = await adminApi(request, admin);
      actionId = (await post('action', { name: { cs: 'Gala 2027', en: 'Gala 2027' } })).id;
    });
    test.beforeEach(async ({ page }) => {
      await useEnglish(page);
      await adminLogin(page, admin.email, admin.password);
    });

    test('write a badge with completion, see the marks, watch the preview follow, switch size and PDF', async ({
      page,
    }) => {
      // the editor (CodeMirror, loaded on demand) and the previews work under the content security policy
      const violations: string[] = [];
      page.on('console', (message) => {
        if (/content security policy/i.test(message.text())) violations.push(message.text());
      });
      await page.goto('/template/create');
      await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Gala badge');
      const editor = page.getByRole('textbox', { name: 'Template HTML' });
      await expect(editor).toHaveClass(/cm-content/);

      // a placeholder by completion: {{fir then Enter
      await editor.fill('<h1></h1>');
      await editor.press('End');
      for (let i = 0; i < 5; i++) await editor.press('ArrowLeft');
      await editor.pressSequentially('{{fir');
      const option = page.getByRole('option', { name: /\{\{firstname\}\}/ });
      await expect(option).toContainText('First name');
      // (a click: Enter is ignored in the first moments after the list opens, CodeMirror's interactionDelay)
      await option.click();
      await expect(editor).toHaveText('<h1>{{firstname}}</h1>');

      // the live preview follows the unsaved text
      const htmlFrame = page.locator('iframe[title="Live preview of the badge"]');
      await expect(htmlFrame).toHaveAttribute('sandbox', '');
      const preview = page.frameLocator('iframe[title="Live preview of the badge"]');
      await expect(preview.locator('h1')).toHaveText('Jan');
      await editor.fill(
        '<h1>{{firstname}} {{lastname}}</h1><p>{{#ifGroup "VIP"}}VIP BAND{{else}}GUEST{{/ifGroup}}</p>{{bc}}',
      );
      await expect(preview.locator('h1')).toHaveText('Jan Novák');
      await expect(preview.locator('p')).toHaveText('VIP BAND');
      await expect(preview.locator('svg.bc')).toHaveCount(1);

      // a broken tag: marked where it is, listed in words, the last good preview kept
      await editor.fill('<h1>{{firstname}} {{lastname}</h1>');
      await expect(page.locator('.cm-lintRange-error')).toBeVisible();
      await expect(page.getByRole('list', { name: 'Problems found in the template' })).toContainText('Line 1, column');
      await expect(page.getByRole('alert')).toContainText('Template error on line 1');
      await expect(preview.locator('h1')).toHaveText('Jan Novák');
      // an unknown placeholder is marked as a warning
      await editor.fill('<h1>{{firstname}} {{lastname}}</h1>{{nickname}}{{bc}}');
      await expect(page.locator('.cm-lintRange-warning')).toHaveText('nickname');
      await expect(page.getByRole('alert')).toHaveCount(0);

      // another page size
      await editor.fill('<h1>{{firstname}} {{lastname}}</h1>{{bc}}');
      await page.locator('label').filter({ hasText: 'A5 landscape' }).click();
      await expect(page.getByRole('radio', { name: 'A5 landscape' })).toBeChecked();
      await expect(htmlFrame).toHaveAttribute('data-page-size', 'A5-L');
      await expect(preview.locator('.accredo-page-A5-L')).toHaveCount(1);

      // the same as the server's PDF
      await page.locator('label').filter({ hasText: /^PDF$/ }).click();
      await expect(page.getByRole('radio', { name: 'PDF' })).toBeChecked();
      const pdfFrame = page.locator('iframe[title="Live preview of the badge as PDF"]');
      await expect(pdfFrame).toHaveAttribute('src', /^blob:/);
      await expect(pdfFrame).toHaveAttribute('data-page-size', 'A5-L');
      const { bytes: pdf } = await downloaded(page, () => page.getByRole('link', { name: 'Open the PDF' }).click());
      expect(Buffer.from(pdf.subarray(0, 5)).toString()).toBe('%PDF-');
      expect(await pdfPages(pdf)).toEqual([[210, 148]]);

      expect(violations).toEqual([]);

      await page.getByRole('button', { name: 'Save' }).click();
      await expect(page.getByText('The template has been created')).toBeVisible();
      await expect(page).toHaveURL(/\/template\/detail\/\d+/);
    });

    test('generate a PDF of a filter from the list and download it', async ({ page, request }) => {
      const { post, get } = await adminApi(request, admin);
      const lists = (await (await get('template')).json()).data as {
        type: string;
        items: { id: number; name: string }[];
      }[];
      const template = lists.flatMap((l) => l.items).find((t) => t.name === 'Gala badge');
      expect(template).toBeDefined();
      const crew = await post('groups', { name: 'Crew', actionId, adminTemplateId: template?.id });
      for (const [firstname, lastname] of [
        ['Alice', 'Crewmember'],
        ['Bob', 'Crewmember'],
        ['Carl', 'Outsider'],
      ])
        await post('user', {
          actionId,
          firstname,
          lastname,
          email: `${firstname.toLowerCase()}@gala.test`,
          groupIds: [crew.id],
        });

      await page.goto('/accreditation');
      await expect(page.getByRole('combobox', { name: 'Current event' })).toHaveValue('Gala 2027');
      await page.getByRole('button', { name: 'Options' }).click();
      await page.getByRole('menuitem', { name: 'Open filter' }).click();
      await page.getByRole('textbox', { name: 'Search text' }).fill('Crewmember');
      await page.getByRole('button', { name: 'Apply filter' }).click();
      await expect(page.getByRole('row', { name: /Alice/ })).toBeVisible();
      await expect(page.getByRole('row', { name: /Carl/ })).toHaveCount(0);
      // the whole filter, not a selection of rows
      await page.getByRole('checkbox', { name: /Select all/ }).check();

      await page.getByRole('button', { name: 'Options' }).click();
      const { name, bytes } = await downloaded(page, () =>
        page.getByRole('menuitem', { name: 'Generate PDF' }).click(),
      );
      expect(name).toMatch(/\.pdf$/);
      expect(Buffer.from(bytes.subarray(0, 5)).toString()).toBe('%PDF-');
      // one A6 page per person of the filter (the template is A6: the editor's size switch only previews)
      expect(await pdfPages(bytes)).toEqual([
        [105, 148],
        [105, 148],
      ]);
    });
  });
