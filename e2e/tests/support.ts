import fs from 'node:fs';
import path from 'node:path';
import { type APIRequestContext, expect, type Page } from '@playwright/test';
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

/**
 * A verified superuser of a new subject, made over the API (operator → subject → admin → the
 * mailed verification link), for journeys that start at the admin application.
 */
export async function provisionAdmin(
  request: APIRequestContext,
  subject: { multiLanguage?: boolean } = {},
): Promise<{ email: string; password: string; subjectId: number }> {
  const stamp = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const op = await request.post('/api/manage/v1/login', {
    data: { login: OPERATOR.email, password: OPERATOR.password },
  });
  const headers = { 'authorization-manage': (await op.json()).data.token };
  const created = await request.post('/api/manage/v1/subject', {
    headers,
    data: {
      name: `Subject ${stamp}`,
      key: `s-${stamp}`,
      pathToFiles: `s-${stamp}`,
      multiLanguage: subject.multiLanguage ?? true,
    },
  });
  const subjectId = (await created.json()).data.id as number;
  const email = `admin-${stamp}@e2e.test`;
  const password = 'admin-password-1';
  await request.post('/api/manage/v1/admin-user', {
    headers,
    data: { subjectId, login: email, password, name: 'Admin', superuser: true },
  });
  const confirmLink = (await mailedLink(email, 'verify')).split('/').pop();
  const verified = await request.post('/api/admin/v1/login/verify-account', {
    data: { email, password, confirmPassword: password, confirmLink },
  });
  expect(verified.ok()).toBe(true);
  return { email, password, subjectId };
}

/** A signed-in caller of the admin API, for setting up a journey's data. */
export async function adminApi(request: APIRequestContext, admin: { email: string; password: string }) {
  const login = await request.post('/api/admin/v1/login', { data: { login: admin.email, password: admin.password } });
  expect(login.ok()).toBe(true);
  const headers = { authorization: (await login.json()).data.token as string };
  // biome-ignore lint/suspicious/noExplicitAny: the set-up reads whatever the call returns
  const post = async (path: string, data: unknown): Promise<any> => {
    const response = await request.post(`/api/admin/v1/${path}`, { headers, data });
    expect(response.ok(), `POST ${path}`).toBe(true);
    return (await response.json()).data;
  };
  const get = (path: string) => request.get(`/api/admin/v1/${path}`, { headers });
  return { headers, post, get };
}
