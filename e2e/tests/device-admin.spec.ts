import { type Locator, type Page } from '@playwright/test';
import { expect, test } from './axe';
import { adminApi, adminLogin, provisionAdmin, useEnglish } from './support';

/**
 * Issue 11, the admin's device journey in a real browser: a rule template made in the form (the
 * saving rules of spec §4 as the form enforces them, a daily limit, a custom date rule, the global
 * rule), the rule simulator on the form, the pairing code read from /device/settings and typed at a
 * /gate page, the template given to the device in /device/detail, scans allowed and refused with
 * their reason (a malformed date in the user field included), and a key rotation that unpairs the
 * gate: its next scan says so.
 */
test.describe
  .serial('the admin sets up a gate in the browser', () => {
    let admin: { email: string; password: string };
    const codes: Record<'anna' | 'bohdan' | 'cecilie' | 'david' | 'eva', string> = {
      anna: '',
      bohdan: '',
      cecilie: '',
      david: '',
      eva: '',
    };

    test.beforeAll(async ({ request }) => {
      admin = await provisionAdmin(request, { multiLanguage: true });
      const { post } = await adminApi(request, admin);
      // spec §3 has no date type: the date is kept as YYYY-MM-DD in a text user field
      const validFrom = await post('custom-field', {
        name: 'Valid from',
        label: { cs: 'Platné od', sk: '', en: 'Valid from', de: '' },
        customFieldType: 1,
      });
      const action = await post('action', {
        name: { cs: 'Festival', en: 'Festival' },
        customField: [{ id: validFrom.id }],
      });
      const visitors = await post('groups', { name: 'Visitors', actionId: action.id });
      const crew = await post('groups', { name: 'Crew', actionId: action.id });
      const press = await post('groups', { name: 'Press', actionId: action.id });
      const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
      const people = [
        ['anna', 'Anna', 'Veselá', [visitors.id], null],
        ['bohdan', 'Bohdan', 'Malý', [crew.id], yesterday],
        // a date written the Czech way, not YYYY-MM-DD: the engine cannot read it (D10)
        ['cecilie', 'Cecílie', 'Horká', [crew.id], '31. 12. 2026'],
        ['david', 'David', 'Novák', [press.id], null],
        ['eva', 'Eva', 'Bez', [], null],
      ] as const;
      for (const [key, firstname, lastname, groupIds, date] of people) {
        const created = await post('user', {
          actionId: action.id,
          firstname,
          lastname,
          email: `${key}@device-admin.test`,
          groupIds,
          customField: date ? [{ id: validFrom.id, value: date }] : [],
        });
        codes[key] = created.bc;
      }
    });

    test.beforeEach(async ({ page }) => {
      await useEnglish(page);
    });

    /** A Mantine select: opened by its input, an option clicked in the list it shows. */
    async function choose(page: Page, field: Locator, option: string) {
      await field.click();
      await page.getByRole('option', { name: option, exact: true }).click();
    }

    async function scan(gate: Page, code: string) {
      const input = gate.getByRole('textbox', { name: /Badge code/ });
      await expect(input).toBeFocused();
      await input.fill(code);
      await input.press('Enter');
    }

    test('rule template, simulator, pairing, scans and key rotation', async ({ page, context }) => {
      // one long journey: about 30 s on a quiet machine, more on a busy one
      test.setTimeout(120_000);
      await adminLogin(page, admin.email, admin.password);

      // --- the rule template, made in the form ---
      await page.goto('/device/rules');
      await page.getByRole('link', { name: 'Add' }).click();
      await expect(page).toHaveURL(/\/device\/rules\/create/);
      await page.getByRole('textbox', { name: 'Name' }).fill('Main entrance');
      // Add took the open tab's action; entry is the default mode
      await expect(page.getByRole('combobox', { name: 'Event' })).toHaveValue('Festival');
      await expect(page.getByRole('combobox', { name: 'Mode' })).toHaveValue('1 – Entry (reader)');

      // spec §4/§5: a mode-1 rule needs its group; the form refuses to save without one
      await page.getByRole('button', { name: 'Add rule' }).click();
      const rule1 = page.getByRole('group', { name: 'Rule 1' });
      await page.getByRole('button', { name: 'Save' }).click();
      await expect(rule1.getByText('This field is required')).toBeVisible();
      await expect(page).toHaveURL(/\/device\/rules\/create/);

      // Visitors: one entry a day
      await choose(page, rule1.getByRole('combobox', { name: 'Group' }), 'Visitors');
      await rule1.getByRole('spinbutton', { name: /Entries/ }).fill('1');
      await rule1.getByRole('switch', { name: 'Per day' }).check({ force: true });
      await expect(rule1.getByText('This field is required')).toHaveCount(0);

      // Crew: valid from the date in their user field
      await page.getByRole('button', { name: 'Add rule' }).click();
      const rule2 = page.getByRole('group', { name: 'Rule 2' });
      await choose(page, rule2.getByRole('combobox', { name: 'Group' }), 'Crew');
      await rule2.getByRole('button', { name: 'Add date rule' }).click();
      await expect(rule2.getByText(/must hold each person's date as YYYY-MM-DD/)).toBeVisible();
      await choose(page, rule2.getByRole('combobox', { name: 'Custom field with a date' }), 'Valid from');
      await expect(rule2.getByRole('combobox', { name: 'Valid' })).toHaveValue('from the date');

      // the global rule lets in the groups without a rule (Press)
      await page.getByRole('switch', { name: 'Enabled' }).check({ force: true });

      await page.getByRole('button', { name: 'Save' }).click();
      await expect(page.getByText('The rule template has been created')).toBeVisible();
      await expect(page).toHaveURL(/\/device\/rules\/detail\/\d+$/);
      const templateUrl = new URL(page.url()).pathname;

      // --- the simulator on the form: everyone now, then one person ---
      const simulator = page.getByRole('region', { name: 'Rule simulator' });
      await simulator.getByRole('button', { name: 'Simulate everyone' }).click();
      const counts = simulator.getByTestId('sim-counts');
      await expect(counts).toContainText('People: 5');
      await expect(counts).toContainText('Would get in: 3');
      await expect(counts).toContainText('Refused: 2');
      const reasons = simulator.getByRole('table', { name: 'Decisions by reason' });
      // each refusal with its reason and how many people: Cecílie's date, Eva's missing group
      for (const reason of ['The date in the custom field is missing or invalid', 'The accreditation has no group']) {
        const row = reasons.getByRole('row', { name: new RegExp(reason) });
        await expect(row.getByRole('cell')).toHaveText(['Refused', reason, '1']);
      }
      await expect(reasons.getByRole('row', { name: /Entry allowed/ }).getByRole('cell')).toHaveText([
        'Allowed',
        /Entry allowed/,
        '3',
      ]);

      // --- the pairing code of /device/settings typed at a gate ---
      await page.goto('/device/settings');
      const pairCode = (await page.getByTestId('pair-code').locator('code').textContent())?.trim() ?? '';
      expect(pairCode).toMatch(/^ACCREDO-PAIR\./);

      // the page names the browser gate screen: opened from there, as the admin would
      const [gate] = await Promise.all([context.waitForEvent('page'), page.getByTestId('gate-link').click()]);
      await expect(gate).toHaveURL(/\/gate$/);
      await gate.getByRole('textbox', { name: /Gate name/ }).fill('North gate');
      const codeField = gate.getByRole('textbox', { name: /Pairing code/ });
      await codeField.fill(pairCode);
      await codeField.press('Enter');
      await expect(gate.getByRole('heading', { name: 'Gate: North gate' })).toBeVisible();
      await expect(gate.getByText(/no rule template yet/)).toBeVisible();

      // --- the template given to the device in /device/detail ---
      await page.goto('/device');
      await page.getByRole('link', { name: 'Edit: North gate' }).click();
      await expect(page).toHaveURL(/\/device\/detail\/\d+$/);
      await choose(page, page.getByRole('combobox', { name: 'Rule template' }), 'Main entrance');
      await page.getByRole('button', { name: 'Save' }).click();
      await expect(page.getByText('The device has been saved')).toBeVisible();

      // --- scans at the gate: allowed and refused, each explained ---
      await gate.bringToFront();
      const decision = gate.getByRole('status');
      await scan(gate, codes.anna);
      await expect(decision).toHaveAttribute('data-state', 'allowed');
      await expect(decision).toContainText('Anna Veselá');
      await expect(decision).toContainText('Entry allowed (1 of 1 today)');
      // the screen follows the device's new template without a reload
      await expect(gate.getByText('Main entrance')).toBeVisible();

      await scan(gate, codes.anna);
      await expect(decision).toHaveAttribute('data-state', 'refused');
      await expect(decision).toContainText(/Already entered 1 of 1 times today, first at \d{2}:\d{2}/);

      await scan(gate, codes.bohdan);
      await expect(decision).toContainText('Bohdan Malý');
      await expect(decision).toHaveAttribute('data-state', 'allowed');

      await scan(gate, codes.cecilie);
      await expect(decision).toContainText('Cecílie Horká');
      await expect(decision).toHaveAttribute('data-state', 'refused');
      await expect(decision).toContainText('The date in the field Valid from is missing or invalid');

      await scan(gate, codes.david);
      await expect(decision).toContainText('David Novák');
      await expect(decision).toHaveAttribute('data-state', 'allowed');

      await scan(gate, codes.eva);
      await expect(decision).toContainText('Eva Bez');
      await expect(decision).toHaveAttribute('data-state', 'refused');
      await expect(decision).toContainText('The accreditation has no group');
      await expect(gate.getByText('Scans this session: 6 (allowed 3, refused 3)')).toBeVisible();

      // --- one person at every device of the action: the gate has used Anna's entry today ---
      await page.bringToFront();
      await page.goto(templateUrl);
      await simulator.getByRole('combobox', { name: 'Person' }).fill('Anna');
      await page.getByRole('option', { name: /Anna Veselá/ }).click();
      await simulator.getByRole('button', { name: 'Simulate the person' }).click();
      const perDevice = simulator.getByTestId('sim-person');
      await expect(perDevice.getByRole('row', { name: /North gate/ })).toContainText('Refused');
      await expect(perDevice.getByRole('row', { name: /North gate/ })).toContainText('Already entered 1 of 1');

      // --- rotating the device key unpairs the gate: its next scan says so ---
      await page.goto('/device/settings');
      await page.getByRole('button', { name: 'Rotate device key' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Rotate device key' }).click();
      await expect(page.getByText('The device key has been rotated; every device is unpaired')).toBeVisible();
      await expect(page.getByTestId('pair-code').locator('code')).not.toHaveText(pairCode);

      await gate.bringToFront();
      await scan(gate, codes.david);
      await expect(gate.getByRole('textbox', { name: /Pairing code/ })).toBeVisible();
      await expect(gate.getByRole('alert')).toContainText('no longer paired');

      await page.goto('/device');
      await expect(page.getByRole('row', { name: /North gate/ })).toContainText('Not paired');

      // --- paired again with the new code, then unpaired with the gate's own button: the server
      // revokes the token, so the device shows as not paired ---
      await page.goto('/device/settings');
      const newCode = (await page.getByTestId('pair-code').locator('code').textContent())?.trim() ?? '';
      await gate.bringToFront();
      await gate.getByRole('textbox', { name: /Pairing code/ }).fill(newCode);
      await gate.getByRole('textbox', { name: /Pairing code/ }).press('Enter');
      await expect(gate.getByRole('heading', { name: 'Gate: North gate' })).toBeVisible();
      await expect(gate.getByText('Main entrance')).toBeVisible();
      await page.goto('/device');
      await expect(page.getByRole('row', { name: /North gate/ })).toContainText('Online');
      await gate.getByRole('button', { name: 'Unpair' }).click();
      await gate.getByRole('button', { name: 'Yes, unpair' }).click();
      await expect(gate.getByRole('textbox', { name: /Pairing code/ })).toBeVisible();
      await page.reload();
      await expect(page.getByRole('row', { name: /North gate/ })).toContainText('Not paired');
    });
  });
