import fs from 'node:fs';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';
import { DATA_DIR, OPERATOR } from '../playwright.config';

/** The link of the newest .eml in the outbox addressed to `to` (the embedded default has no SMTP). */
export async function mailedLink(to: string, kind: 'verify' | 'forgot-password'): Promise<string> {
  const outbox = path.join(DATA_DIR, 'outbox');
  let link: string | undefined;
  await expect
    .poll(
      () => {
        if (!fs.existsSync(outbox)) return undefined;
        const files = fs.readdirSync(outbox).sort().reverse();
        for (const f of files) {
          const text = fs
            .readFileSync(path.join(outbox, f), 'utf8')
            .replace(/=\r?\n/g, '')
            .replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
          if (!new RegExp(`^To: .*${to.replace(/[.+]/g, '\\$&')}`, 'mi').test(text)) continue;
          const m = text.match(new RegExp(`https?://[^\\s]+/${kind}/[A-Za-z0-9_-]+`));
          if (m) {
            link = new URL(m[0]).pathname;
            return link;
          }
        }
        return undefined;
      },
      { timeout: 15_000 },
    )
    .toBeTruthy();
  return link!;
}

/** Shows the UI in English from the first page on (the language is remembered per browser). */
export async function useEnglish(page: Page): Promise<void> {
  await page.addInitScript(() => {
    if (!window.localStorage.getItem('accredo.language')) window.localStorage.setItem('accredo.language', 'en');
  });
}

export async function operatorLogin(page: Page): Promise<void> {
  await page.goto('/manage/login');
  await page.getByLabel('E-mail').fill(OPERATOR.email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(OPERATOR.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/manage$/);
}

export async function adminLogin(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await page.getByRole('textbox', { name: 'Password', exact: true }).press('Enter');
  await expect(page.getByRole('navigation', { name: 'Main menu' })).toBeVisible();
}
