import { type Page } from '@playwright/test';
import { expect, test } from './axe';
import { adminApi, adminLogin, provisionAdmin, useEnglish } from './support';

/**
 * Issue 11 in the browser: an organiser sets up a rule template, a browser gate is paired with the
 * settings code, people are scanned in and out and every refusal is explained; the accreditation
 * list's entrance filter then shows who entered.
 */
test.describe
  .serial('browser gate', () => {
    let admin: { email: string; password: string };
    let pairCode: string;
    let templateId: number;
    const codes: Record<'anna' | 'bohdan' | 'cecilie', string> = { anna: '', bohdan: '', cecilie: '' };

    test.beforeAll(async ({ request }) => {
      admin = await provisionAdmin(request, { multiLanguage: true });
      const { post, get } = await adminApi(request, admin);
      const action = await post('action', { name: { cs: 'Festival', en: 'Festival' } });
      const zone = await post('zone', { name: 'Main stage', actionId: action.id });
      const group = await post('groups', { name: 'Visitors', actionId: action.id });
      const people = [
        ['anna', 'Anna', 'Veselá', [zone.id]],
        ['bohdan', 'Bohdan', 'Malý', []],
        ['cecilie', 'Cecílie', 'Horká', [zone.id]],
      ] as const;
      for (const [key, firstname, lastname, zones] of people) {
        const created = await post('user', {
          actionId: action.id,
          firstname,
          lastname,
          email: `${key}@gate.test`,
          groupIds: [group.id],
          zones,
        });
        codes[key] = created.bc;
      }
      // mode 1 (entry), the group may enter once a day, only with the template's zone
      const template = await post('device-template', {
        name: 'Main entrance',
        actionId: action.id,
        zoneId: zone.id,
        data: {
          mode: 1,
          rules: [{ groupId: group.id, entrances: 1, daily: true }],
          globalRule: { enabled: false },
        },
      });
      templateId = template.id;
      const key = await get('device/key');
      expect(key.ok()).toBe(true);
      pairCode = (await key.json()).data.bc;
      for (const value of Object.values(codes)) expect(value).toMatch(/^[A-Z0-9]{16}$/);
    });

    test.beforeEach(async ({ page }) => {
      await useEnglish(page);
    });

    async function scan(page: Page, code: string) {
      const input = page.getByRole('textbox', { name: /Badge code/ });
      await expect(input).toBeFocused();
      await input.fill(code);
      await input.press('Enter');
    }

    test('pair the gate with the settings code, then scan people in and out', async ({ page, request }) => {
      await page.goto('/gate');
      // not behind the admin login
      await expect(page).toHaveURL(/\/gate$/);
      await page.getByRole('textbox', { name: /Gate name/ }).fill('North gate');
      const code = page.getByRole('textbox', { name: /Pairing code/ });
      await code.fill(pairCode);
      await code.press('Enter');
      await expect(page.getByRole('heading', { name: 'Gate: North gate' })).toBeVisible();
      await expect(page.getByText(/no rule template yet/)).toBeVisible();

      // the organiser gives the new device its template
      const { headers } = await adminApi(request, admin);
      const devices = (await (await request.get('/api/admin/v1/device', { headers })).json()).data as {
        id: number;
        name: string;
        uid: string;
      }[];
      const device = devices.find((d) => d.name === 'North gate');
      expect(device).toBeTruthy();
      const assigned = await request.put(`/api/admin/v1/device/${device!.id}`, {
        headers,
        data: { name: device!.name, uid: device!.uid, deviceTemplateId: templateId },
      });
      expect(assigned.ok()).toBe(true);

      // the token survives a reload (kept in this browser)
      await page.reload();
      await expect(page.getByRole('heading', { name: 'Gate: North gate' })).toBeVisible();
      await expect(page.getByText('Main entrance')).toBeVisible();
      await expect(page.getByText('Main stage')).toBeVisible();
      const decision = page.getByRole('status');

      await scan(page, codes.anna);
      await expect(decision).toHaveAttribute('data-state', 'allowed');
      await expect(decision).toContainText('Allowed');
      await expect(decision).toContainText('Anna Veselá');
      await expect(decision).toContainText('Entry allowed (1 of 1 today)');

      await scan(page, codes.anna);
      await expect(decision).toHaveAttribute('data-state', 'refused');
      await expect(decision).toContainText('Refused');
      await expect(decision).toContainText(/Already entered 1 of 1 times today, first at \d{2}:\d{2}/);

      await scan(page, codes.bohdan);
      await expect(decision).toContainText('Bohdan Malý');
      await expect(decision).toHaveAttribute('data-state', 'refused');
      await expect(decision).toContainText('No access to the zone Main stage');

      // exit by the keyboard shortcut
      await page.keyboard.press('F2');
      await expect(page.getByRole('radio', { name: 'Exit' })).toBeChecked();
      await scan(page, codes.anna);
      await expect(decision).toHaveAttribute('data-state', 'allowed');
      await expect(decision).toContainText('Exit recorded');
      await expect(page.getByText('Scans this session: 4 (allowed 2, refused 2)')).toBeVisible();
    });

    test("the accreditation list's entrance filter shows who entered", async ({ page }) => {
      await adminLogin(page, admin.email, admin.password);
      await page.goto('/accreditation');
      await expect(page.getByRole('row', { name: /Bohdan/ })).toBeVisible();
      await page.getByRole('button', { name: 'Options' }).click();
      await page.getByRole('menuitem', { name: 'Open filter' }).click();
      await page.getByRole('combobox', { name: 'Entrance' }).click();
      await page.getByRole('option', { name: 'Entered', exact: true }).click();
      await page.getByRole('button', { name: 'Apply filter' }).click();
      await expect(page.getByRole('row', { name: /Anna/ })).toBeVisible();
      await expect(page.getByRole('row', { name: /Bohdan/ })).toHaveCount(0);
      await expect(page.getByRole('row', { name: /Cecílie/ })).toHaveCount(0);
    });
  });
