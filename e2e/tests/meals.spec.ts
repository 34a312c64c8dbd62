import { expect, test } from './axe';
import { OPERATOR } from '../playwright.config';
import { adminApi, provisionAdmin, useEnglish } from './support';

const DAYS = ['2026-07-01', '2026-07-02', '2026-07-03'];
const dayName = (i: number) => ({ cs: `Den ${i + 1}`, sk: '', en: `Day ${i + 1}`, de: '' });

/**
 * Issue 14 in the browser: an admin switches meals on for a three-day event, sets up a lunch on the
 * first day and copies it to the other two, gives the crew group the lunches as its default, and a
 * person who then joins the crew has them in the extension's users screen. The subject is Czech only
 * (no multi-language), so the screens speak Czech.
 */
test.describe
  .serial('meals', () => {
    let admin: { email: string; password: string; subjectId: number };
    let actionId: number;
    let crewId: number;

    test.beforeAll(async ({ request }) => {
      admin = await provisionAdmin(request, { multiLanguage: false });
      // The provider switches the meal extension on for the subject.
      const op = await request.post('/api/manage/v1/login', {
        data: { login: OPERATOR.email, password: OPERATOR.password },
      });
      const headers = { 'authorization-manage': (await op.json()).data.token };
      const { subjectId } = admin;
      const subject = (await (await request.get(`/api/manage/v1/subject/${subjectId}`, { headers })).json()).data;
      const updated = await request.put(`/api/manage/v1/subject/${subjectId}`, {
        headers,
        data: { ...subject, extensions: [1] },
      });
      expect(updated.ok()).toBe(true);

      const { post } = await adminApi(request, admin);
      const action = await post('action', {
        name: { cs: 'Festival' },
        dateFrom: `${DAYS[0]}T08:00`,
        dateTo: `${DAYS[2]}T22:00`,
        multiDay: true,
        days: DAYS.map((id, i) => ({ id, name: dayName(i), onAccreditation: `D${i + 1}` })),
      });
      actionId = action.id;
      const crew = await post('groups', { name: 'Crew', actionId, assignDefaultMeal: true });
      crewId = crew.id;
    });

    test('lunches over three days, a group default, and a new crew member has them', async ({ page, request }) => {
      // The login page is in English; after it the Czech-only subject's screens are in Czech.
      await useEnglish(page);
      await page.goto('/login');
      await page.getByLabel('E-mail').fill(admin.email);
      await page.getByRole('textbox', { name: 'Password', exact: true }).fill(admin.password);
      await page.getByRole('textbox', { name: 'Password', exact: true }).press('Enter');
      await expect(page.getByRole('navigation', { name: 'Hlavní menu' })).toBeVisible();

      // the overview: a meal card (no parking, the subject does not have it) and the report
      await page.goto('/action-extension');
      await expect(page.getByRole('link', { name: 'Parkování' })).toHaveCount(0);
      await page.getByRole('link', { name: 'Stravování' }).click();
      await expect(page).toHaveURL(/\/action-extension\/meal$/);

      // switch meals on for the action, then edit its items
      // the switch follows the reloaded list, so it is clicked and then seen on
      await page.getByRole('switch', { name: 'Aktivní: Festival' }).click({ force: true });
      await expect(page.getByRole('switch', { name: 'Aktivní: Festival' })).toBeChecked();
      await page.getByRole('link', { name: 'Upravit položky: Festival' }).click();
      await expect(page.getByRole('tab', { name: 'Den 1' })).toBeVisible();
      await expect(page.getByRole('tab', { name: 'Den 3' })).toBeVisible();

      await page.getByRole('button', { name: 'Přidat jídlo' }).click();
      const meal = page.getByRole('group', { name: 'Jídlo 1' });
      await meal.getByLabel('Čas od').fill('12:00');
      await meal.getByLabel('Čas do').fill('13:00');
      await page.getByRole('button', { name: 'Uložit' }).click();
      await expect(meal.getByText('Toto pole je povinné')).toBeVisible();
      await meal.getByRole('textbox', { name: 'Název', exact: true }).fill('Lunch');
      await meal.getByRole('button', { name: 'Přidat variantu' }).click();
      await meal.getByRole('textbox', { name: 'Název varianty' }).fill('Vegetarian');

      await page.getByRole('button', { name: 'Kopírovat do dalších dnů' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('checkbox', { name: 'Den 2' }).check();
      await dialog.getByRole('checkbox', { name: 'Den 3' }).check();
      await dialog.getByRole('button', { name: 'Kopírovat', exact: true }).click();
      await page.getByRole('button', { name: 'Uložit' }).click();
      await expect(page.getByText('Rozšíření bylo uloženo')).toBeVisible();
      await page.getByRole('tab', { name: 'Den 3' }).click();
      await expect(
        page.getByRole('group', { name: 'Jídlo 1' }).getByRole('textbox', { name: 'Název', exact: true }),
      ).toHaveValue('Lunch');

      // the crew gets the lunch of every day by default
      await page.goto(`/action-extension/meal/${actionId}/users`);
      await page.getByRole('tab', { name: 'Výchozí položky skupin' }).click();
      await page.getByRole('button', { name: 'Upravit výchozí: Crew' }).click();
      const defaults = page.getByRole('dialog');
      for (const day of ['Den 1', 'Den 2', 'Den 3']) {
        await defaults.getByRole('tab', { name: day }).click();
        await defaults.getByText('Přiřadit', { exact: true }).click();
      }
      await defaults.getByRole('button', { name: 'Uložit' }).click();
      await expect(page.getByText('Přiřazeno', { exact: true })).toBeVisible();

      // a person joins the crew and has the three lunches
      const { post } = await adminApi(request, admin);
      await post('user', {
        actionId,
        firstname: 'Eva',
        lastname: 'Cook',
        email: 'eva@festival.test',
        groupIds: [crewId],
      });
      await page.reload();
      await expect(page.getByRole('tab', { name: 'Den 1' })).toBeVisible();
      const row = page.getByRole('row', { name: /Eva Cook/ });
      await expect(row.getByText('Lunch')).toBeVisible();
      await page.getByRole('tab', { name: 'Den 3' }).click();
      await expect(page.getByRole('row', { name: /Eva Cook/ }).getByText('Lunch')).toBeVisible();
    });

    test('Eva picks the vegetarian lunch on her preview page; the dashboard lists her, and its charts move after a registration', async ({
      page,
      request,
    }) => {
      const { post, get, headers } = await adminApi(request, admin);
      // the action's preview page offers the meals for choosing until a deadline
      const action = (await (await get(`action/${actionId}`)).json()).data;
      const saved = await request.put(`/api/admin/v1/action/${actionId}`, {
        headers,
        data: {
          ...action,
          smartBc: true,
          previewData: {
            ...action.previewData,
            meal: {
              ...action.previewData.meal,
              show: true,
              title: { cs: 'Stravování' },
              allowSelect: true,
              selectDateTime: '2099-01-01T00:00',
            },
          },
        },
      });
      expect(saved.status(), await saved.text()).toBe(200);
      const [eva] = await post('user/filter', { actionId, page: 1, pageSize: 10, filterData: { text: 'eva@' } });
      const subjectKey = (await (await get('subject')).json()).data.key;

      await page.goto(`/preview/${subjectKey}/cid/${eva.bc}`);
      await expect(page.getByText('Stravování').first()).toBeVisible();
      const option = page.getByRole('combobox', { name: 'Varianta: 1. 7. 2026 · Lunch 12:00–13:00' });
      await option.selectOption({ label: 'Vegetarian' });
      await page.getByRole('button', { name: 'Uložit výběr' }).click();
      await expect(page.getByText('Váš výběr byl uložen')).toBeVisible();
      await page.reload();
      await expect
        .poll(() => option.evaluate((el) => (el as HTMLSelectElement).selectedOptions[0]?.text))
        .toBe('Vegetarian');

      // a wrong code is a page not found, never someone else's page
      await page.goto(`/preview/${subjectKey}/cid/NOSUCHCODE1`);
      await expect(page.getByText('Stránka nenalezena')).toBeVisible();

      // the dashboard's latest registrations show her
      await useEnglish(page);
      await page.goto('/login');
      await page.getByLabel('E-mail').fill(admin.email);
      await page.getByRole('textbox', { name: 'Password', exact: true }).fill(admin.password);
      await page.getByRole('textbox', { name: 'Password', exact: true }).press('Enter');
      await expect(page.getByRole('navigation', { name: 'Hlavní menu' })).toBeVisible();
      await page.goto('/');
      await expect(page.getByText('Eva').first()).toBeVisible();
      await expect(page.getByText('Cook').first()).toBeVisible();

      // the charts move after a registration: someone registers on the web channel, and the chart
      // by type (its total and today's web-channel count) and the total chart count one more
      const byType = page.getByRole('figure', { name: 'Podle typu po dnech' });
      await expect(byType).toBeVisible();
      const before = Number(await byType.getAttribute('data-total'));
      expect(before).toBeGreaterThan(0);
      const webToday = async () => {
        const last = byType.getByRole('row').last();
        return Number(await last.getByRole('cell').last().textContent());
      };
      const webBefore = await webToday();
      const channel = await post('web-channel', { name: 'Festival web', actionId });
      const registered = await request.post(`/api/online/v1/accreditation/${channel.channelKey}`, {
        data: { firstname: 'Petr', lastname: 'Web', email: 'petr@festival.test', customField: [] },
      });
      expect(registered.status(), await registered.text()).toBe(201);
      await page.reload();
      await expect(byType).toHaveAttribute('data-total', String(before + 1));
      expect(await webToday()).toBe(webBefore + 1);
      await page.getByRole('tab', { name: 'Celkem', exact: true }).click();
      await expect(page.getByRole('figure', { name: 'Celkem' })).toHaveAttribute('data-total', String(before + 1));
      await expect(page.getByText('Petr').first()).toBeVisible();
    });
  });
