import { expect, test } from './axe';
import { adminLogin, mailedLink, operatorLogin, useEnglish } from './support';

/**
 * Issue 2's journey, in a real browser against the built server on its embedded defaults:
 * the operator creates a subject and its first admin; the admin verifies from the e-mailed link,
 * signs in, switches language, edits the subject, creates a user with rights, and signs out;
 * that user sees only the menu their rights allow.
 */
test.describe
  .serial('from provider operator to admin', () => {
    const stamp = Date.now().toString(36);
    const boss = { email: `boss-${stamp}@fair.test`, password: 'boss-password-1' };
    const clerk = { email: `clerk-${stamp}@fair.test`, password: 'clerk-password-1' };

    test.beforeEach(async ({ page }) => useEnglish(page));

    test('the operator creates a subject and its first admin', async ({ page }) => {
      await operatorLogin(page);
      await page.goto('/manage/subject/create');
      await page.getByRole('textbox', { name: 'Name', exact: true }).fill(`Brno Fair ${stamp}`);
      await page.getByRole('textbox', { name: 'Key', exact: true }).fill(`brno-${stamp}`);
      await page.getByLabel('Path to files').fill(`brno-${stamp}`);
      await page.getByLabel('Multiple languages').check({ force: true });
      await page.getByRole('button', { name: 'Save' }).click();
      await expect(page).toHaveURL(/\/manage\/subject\/detail\/\d+/);
      await expect(page.getByText('The organisation has been created')).toBeVisible();
      const subjectId = page.url().match(/detail\/(\d+)/)![1];

      await page.goto(`/manage/admin-user/create?subjectId=${subjectId}`);
      await page.getByLabel('Login e-mail').fill(boss.email);
      await page.getByRole('textbox', { name: 'Password', exact: true }).fill('initial-password');
      await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Boss');
      await page.getByRole('button', { name: 'Save' }).click();
      await expect(page.getByText('The admin user has been created')).toBeVisible();
      await expect(page).toHaveURL(/\/manage\/admin-user\/detail\/\d+/);
    });

    test('the admin verifies the account from the e-mailed link and signs in', async ({ page }) => {
      const link = await mailedLink(boss.email, 'verify');
      await page.goto(link);
      await expect(page.getByLabel('E-mail')).toHaveValue(boss.email);
      await page.getByRole('textbox', { name: 'New password', exact: true }).fill(boss.password);
      await page.getByRole('textbox', { name: 'Confirm password' }).fill(boss.password);
      await page.getByRole('button', { name: 'Confirm account' }).click();
      await expect(page).toHaveURL(/\/login$/);
      await expect(page.getByText('The account has been confirmed')).toBeVisible();

      // A second use of the link says the account is already verified.
      await page.goto(link);
      await expect(page.getByText('The account has already been verified')).toBeVisible();
      await expect(page).toHaveURL(/\/login$/);

      await adminLogin(page, boss.email, boss.password);
      const nav = page.getByRole('navigation', { name: 'Main menu' });
      await expect(nav.getByRole('link', { name: 'Admin users' })).toBeVisible();
      await expect(nav.getByRole('link', { name: 'Organisation' })).toBeVisible();
    });

    test('the admin switches language, edits the subject and creates a user with rights', async ({ page }) => {
      await adminLogin(page, boss.email, boss.password);
      await page.getByRole('combobox', { name: 'Language' }).click();
      await page.getByRole('option', { name: 'Čeština' }).click();
      await expect(
        page.getByRole('navigation', { name: 'Hlavní menu' }).getByRole('link', { name: 'Systémoví uživatelé' }),
      ).toBeVisible();
      await page.getByRole('combobox', { name: 'Jazyk' }).click();
      await page.getByRole('option', { name: 'English' }).click();
      await expect(
        page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Admin users' }),
      ).toBeVisible();

      await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Organisation' }).click();
      await expect(page.getByRole('textbox', { name: 'Name', exact: true })).toHaveValue(`Brno Fair ${stamp}`);
      await page.getByRole('textbox', { name: 'Name', exact: true }).fill(`Brno Trade Fair ${stamp}`);
      await page.keyboard.press('Control+s');
      await expect(page.getByText('The organisation settings have been saved')).toBeVisible();
      await page.reload();
      await expect(page.getByRole('textbox', { name: 'Name', exact: true })).toHaveValue(`Brno Trade Fair ${stamp}`);

      await page.goto('/admin-user/create');
      await page.getByLabel('Login e-mail').fill(clerk.email);
      await page.getByRole('textbox', { name: 'Password', exact: true }).fill('clerk-initial-1');
      await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Clerk');
      await page.getByRole('button', { name: 'Save' }).click();
      await expect(page).toHaveURL(/\/admin-user\/detail\/\d+/);
      await page.getByRole('tab', { name: 'Rights' }).click();
      const users = page.getByRole('group', { name: 'Admin users' });
      await users.getByLabel('Show').check();
      await page.getByRole('button', { name: 'Save' }).click();
      await expect(page.getByText('The user has been saved')).toBeVisible();
      await page.reload();
      await page.getByRole('tab', { name: 'Rights' }).click();
      await expect(page.getByRole('group', { name: 'Admin users' }).getByLabel('Show')).toBeChecked();

      await page.getByRole('button', { name: 'User menu' }).click();
      await page.getByRole('menuitem', { name: 'Log out' }).click();
      await expect(page).toHaveURL(/\/login$/);
      await page.goto('/admin-user');
      await expect(page).toHaveURL(/\/login$/);
    });

    test('a user sees only the menu entries their rights allow', async ({ page }) => {
      const link = await mailedLink(clerk.email, 'verify');
      await page.goto(link);
      await page.getByRole('textbox', { name: 'New password', exact: true }).fill(clerk.password);
      await page.getByRole('textbox', { name: 'Confirm password' }).fill(clerk.password);
      await page.getByRole('button', { name: 'Confirm account' }).click();
      await expect(page).toHaveURL(/\/login$/);

      await adminLogin(page, clerk.email, clerk.password);
      const nav = page.getByRole('navigation', { name: 'Main menu' });
      await expect(nav.getByRole('link', { name: 'Admin users' })).toBeVisible();
      await expect(nav.getByRole('link', { name: 'Organisation' })).toHaveCount(0);
      await expect(nav.getByRole('link', { name: 'Gallery' })).toHaveCount(0);
      await page.goto('/subject');
      await expect(page.getByText('403')).toBeVisible();

      // may look at a user, not change one: the form says so and takes no input
      await nav.getByRole('link', { name: 'Admin users' }).click();
      await page.getByRole('link', { name: `Edit: ${boss.email}` }).click();
      await expect(page.getByText('Read only')).toBeVisible();
      await expect(page.getByRole('textbox', { name: 'Name', exact: true })).toBeDisabled();
      await expect(page.getByRole('button', { name: 'Save' })).toHaveCount(0);
    });

    test('leaving a form with unsaved changes asks first', async ({ page }) => {
      await adminLogin(page, boss.email, boss.password);
      await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Organisation' }).click();
      await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Changed but not saved');
      await expect(page.getByRole('button', { name: 'Discard changes' })).toBeVisible();
      await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Admin users' }).click();
      const dialog = page.getByRole('dialog', { name: 'Unsaved changes' });
      await expect(dialog).toBeVisible();
      await dialog.getByRole('button', { name: 'Stay' }).click();
      await expect(page).toHaveURL(/\/subject$/);
      await expect(page.getByRole('textbox', { name: 'Name', exact: true })).toHaveValue('Changed but not saved');
      await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Admin users' }).click();
      await page.getByRole('dialog', { name: 'Unsaved changes' }).getByRole('button', { name: 'Leave' }).click();
      await expect(page).toHaveURL(/\/admin-user$/);
    });

    test('a wrong password is refused without saying whether the account exists', async ({ page }) => {
      await page.goto('/login');
      await page.getByLabel('E-mail').fill(boss.email);
      await page.getByRole('textbox', { name: 'Password', exact: true }).fill('wrong-password');
      await page.getByRole('button', { name: 'Log in' }).click();
      await expect(page.getByText('Invalid login details').first()).toBeVisible();
      await expect(page).toHaveURL(/\/login$/);
    });
  });
