import { expect, test, type Page } from './support/test.js';
import { chooseLogout, expectSignedOut, signedInOnVault } from './support/auth.js';
import { DRAFTS, expectToast, getLocalStorage, openSideMenu, setLocalStorage, sideMenu, unsavedIndicator, type BrowserGlobals } from './support/ui.js';

// The application shell (owner-core spec, section 2 "Application shell", "Side menu", "Landing page",
// "Vault home"; section 4 "Side menu and theme", "Sign-out with unsaved work", "Unsaved detection").

// The system theme is light unless a test says otherwise.
test.use({ colorScheme: 'light' });

test.describe('side menu', () => {
  test('opens from the menu toggle and closes with "Close menu", Escape or a click on the overlay', async ({ page }) => {
    await page.goto('/');
    const toggle = page.getByRole('button', { name: 'Open menu' });
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');

    const menu = await openSideMenu(page);
    // The modal menu hides the rest of the page from assistive technology, the toggle included.
    await expect(toggle).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Open menu', includeHidden: true })).toHaveAttribute('aria-expanded', 'true');
    await expect(menu.getByRole('navigation', { name: 'Main' })).toBeVisible();
    await menu.getByRole('button', { name: 'Close menu' }).click();
    await expect(sideMenu(page)).toHaveCount(0);
    // Focus goes back to the toggle that opened it.
    await expect(toggle).toBeFocused();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');

    await openSideMenu(page);
    await page.keyboard.press('Escape');
    await expect(sideMenu(page)).toHaveCount(0);

    await openSideMenu(page);
    // The overlay covers the page to the right of the 256 px panel.
    const viewport = page.viewportSize() ?? { width: 1280, height: 800 };
    await page.mouse.click(viewport.width - 100, viewport.height / 2);
    await expect(sideMenu(page)).toHaveCount(0);
    await expect(page).toHaveURL(/\/$/);
  });

  test('navigating closes the menu and the active entry is marked as the current page', async ({ page }) => {
    await page.goto('/');
    let menu = await openSideMenu(page);
    await expect(menu.getByRole('link', { name: 'Home', exact: true })).toHaveAttribute('aria-current', 'page');
    await expect(menu.getByRole('link', { name: 'How It Works', exact: true })).not.toHaveAttribute('aria-current', /.*/);

    await menu.getByRole('link', { name: 'How It Works', exact: true }).click();
    await expect(page).toHaveURL(/\/how-it-works$/);
    await expect(sideMenu(page)).toHaveCount(0);
    await expect(page.getByRole('heading', { level: 1, name: 'How It Works' })).toBeVisible();

    menu = await openSideMenu(page);
    await expect(menu.getByRole('link', { name: 'How It Works', exact: true })).toHaveAttribute('aria-current', 'page');
    await expect(menu.getByRole('link', { name: 'Home', exact: true })).not.toHaveAttribute('aria-current', /.*/);
    await expect(menu.locator('[aria-current="page"]')).toHaveCount(1);
  });

  test('signed in, "Personal Vault" opens the vault and is then the current entry', async ({ page }) => {
    await signedInOnVault(page);
    await page.goto('/');
    let menu = await openSideMenu(page);
    await menu.getByRole('link', { name: 'Personal Vault', exact: true }).click();
    await expect(page).toHaveURL(/\/vault$/);
    await expect(sideMenu(page)).toHaveCount(0);
    menu = await openSideMenu(page);
    await expect(menu.getByRole('link', { name: 'Personal Vault', exact: true })).toHaveAttribute('aria-current', 'page');
  });
});

test.describe('top bar', () => {
  test('signed out it offers Login, which opens the sign-in screen', async ({ page }) => {
    await page.goto('/how-it-works');
    await page.getByRole('banner').getByRole('link', { name: 'Login', exact: true }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Your legacy begins here.' })).toBeVisible();
  });

  test('the avatar menu shows "User", the e-mail, Edit Profile and Logout, and closes on an outside click', async ({ page }) => {
    const { email } = await signedInOnVault(page);
    const avatar = page.getByRole('button', { name: 'Account menu' });
    // No full name yet: the avatar shows the first letter of the e-mail.
    await expect(avatar).toHaveText(email[0]!.toUpperCase());

    await avatar.click();
    const menu = page.getByRole('menu');
    await expect(menu).toContainText('User');
    await expect(menu).toContainText(email);
    await expect(menu.getByRole('menuitem')).toHaveText(['Edit Profile', 'Logout']);

    await page.getByRole('heading', { level: 1, name: 'Welcome Back' }).click();
    await expect(menu).toHaveCount(0);
    await expect(page).toHaveURL(/\/vault$/);
  });
});

test.describe('theme', () => {
  const themeButton = (page: Page) => page.getByRole('button', { name: 'Theme' });
  const chooseTheme = async (page: Page, name: 'Light' | 'Dark' | 'System') => {
    await themeButton(page).click();
    await page.getByRole('menuitemradio', { name }).click();
  };

  test('Dark puts class "dark" on <html>, is stored under localStorage "theme" and survives a reload', async ({ page }) => {
    await page.goto('/');
    const html = page.locator('html');
    await expect(html).toHaveClass(/\blight\b/);
    await expect(html).not.toHaveClass(/\bdark\b/);

    await chooseTheme(page, 'Dark');
    await expect(html).toHaveClass(/\bdark\b/);
    await expect(html).not.toHaveClass(/\blight\b/);
    expect(await getLocalStorage(page, 'theme')).toBe('dark');

    await page.reload();
    await expect(html).toHaveClass(/\bdark\b/);
    await themeButton(page).click();
    await expect(page.getByRole('menuitemradio', { name: 'Dark' })).toHaveAttribute('aria-checked', 'true');
    await page.keyboard.press('Escape');

    await chooseTheme(page, 'Light');
    await expect(html).toHaveClass(/\blight\b/);
    await expect(html).not.toHaveClass(/\bdark\b/);
    expect(await getLocalStorage(page, 'theme')).toBe('light');
  });

  test('System follows the operating system preference', async ({ page }) => {
    await page.goto('/');
    await chooseTheme(page, 'System');
    expect(await getLocalStorage(page, 'theme')).toBe('system');
    const html = page.locator('html');
    await expect(html).toHaveClass(/\blight\b/);
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect(html).toHaveClass(/\bdark\b/);
    await page.emulateMedia({ colorScheme: 'light' });
    await expect(html).toHaveClass(/\blight\b/);
  });
});

test.describe('landing page', () => {
  test('Daily Inspiration shows a quote and "New Quote" changes it', async ({ page }) => {
    await page.goto('/');
    const block = page.getByRole('region', { name: 'Daily Inspiration' });
    const quote = block.getByRole('blockquote');
    await expect(quote).toHaveText(/\S/);
    for (let i = 0; i < 3; i++) {
      const before = (await quote.innerText()).trim();
      await block.getByRole('button', { name: 'New Quote' }).click();
      await expect(quote).not.toHaveText(before);
      await expect(quote).toHaveText(/\S/);
    }
  });

  test('"Keep Your Vault Alive" advertises the plan with a link to /pricing', async ({ page }) => {
    await page.goto('/');
    const block = page.getByRole('region', { name: 'Keep Your Vault Alive' });
    await expect(block).toContainText('£9.99');
    await expect(block).toContainText('per month');
    const features = block.getByRole('list', { name: 'What the plans include' }).getByRole('listitem');
    await expect(features).toHaveCount(6);
    await expect(features.filter({ hasText: 'Parent Circle access' })).toContainText('Pro and Legacy plans');
    await expect(features.filter({ hasText: 'Music library' })).toContainText('tracks chosen by the people who run this Legacy Vault');
    await expect(block.getByRole('link', { name: 'View Plans' })).toHaveAttribute('href', '/pricing');
  });

  test('the hero and headline buttons and the four message cards link to the right places', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('link', { name: 'Subscribe Now' })).toHaveAttribute('href', '/pricing');
    await expect(page.getByRole('link', { name: 'Enter My Vault' })).toHaveAttribute('href', '/vault');
    await expect(page.getByRole('main').getByRole('link', { name: 'How It Works', exact: true })).toHaveAttribute('href', '/how-it-works');

    const cards = page.getByRole('region', { name: 'Leave a Message That Lasts' }).getByRole('link');
    await expect(cards).toHaveCount(4);
    const expected: [string, string][] = [
      ['Audio Messages', '/record'],
      ['Video Messages', '/record'],
      ['Write Your Letter', '/letters'],
      ['Upload Court Docs', '/court-journal'],
    ];
    for (const [title, href] of expected) {
      const card = cards.filter({ has: page.getByRole('heading', { name: title, exact: true }) });
      await expect(card).toHaveCount(1);
      await expect(card).toHaveAttribute('href', href);
    }

    await expect(page.getByRole('region', { name: 'Stories of Hope' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'What Parents Are Saying' }).getByRole('img', { name: '5 out of 5 stars' })).toHaveCount(3);
    await expect(page.getByRole('region', { name: 'Join Parent Community' }).getByRole('link', { name: 'Join Parent Community' })).toHaveAttribute('href', '/community');
  });

  test('"Enter My Vault" while signed out leads to the sign-in screen', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('link', { name: 'Enter My Vault' }).click();
    await expect(page).toHaveURL(/\/auth$/);
  });
});

test.describe('unsaved work', () => {
  test('typing in Thoughts & Feelings shows "Unsaved changes"; saving or clearing hides it', async ({ page }) => {
    await signedInOnVault(page);
    const thoughts = page.getByRole('textbox', { name: 'Thoughts & Feelings' });
    await expect(unsavedIndicator(page)).toHaveCount(0);

    await thoughts.fill('I wish I could tell you this in person.');
    await expect(unsavedIndicator(page)).toBeVisible();

    await thoughts.fill('');
    await expect(unsavedIndicator(page)).toHaveCount(0);

    await thoughts.fill('Saved for later.');
    await expect(unsavedIndicator(page)).toBeVisible();
    await page.getByRole('button', { name: 'Save Reflection' }).click();
    await expectToast(page, 'Thoughts saved privately');
    // The indicator follows the 5-second check after a save (no input event happens then).
    await expect(unsavedIndicator(page)).toHaveCount(0, { timeout: 12_000 });
    // Saved in the vault, not in the browser: a reload shows it again (and it is not unsaved work).
    expect(await getLocalStorage(page, 'vault_thoughts')).toBeNull();
    await page.reload();
    await expect(thoughts).toHaveValue('Saved for later.');
    await expect(unsavedIndicator(page)).toHaveCount(0);
  });

  test('with unsaved changes the browser asks before the page unloads', async ({ page }) => {
    await signedInOnVault(page);
    await page.getByRole('textbox', { name: 'Thoughts & Feelings' }).fill('Not saved yet.');
    await expect(unsavedIndicator(page)).toBeVisible();
    const dialog = page.waitForEvent('dialog');
    await page.close({ runBeforeUnload: true });
    const asked = await dialog;
    expect(asked.type()).toBe('beforeunload');
    await asked.dismiss();
    expect(page.isClosed()).toBe(false);
  });

  test('signed out, nothing typed counts as unsaved work', async ({ page }) => {
    await page.goto('/auth');
    await page.getByLabel('Email', { exact: true }).fill('someone@example.com');
    await expect(unsavedIndicator(page)).toHaveCount(0);
  });

  test('"Sign Out Warning" lists the drafts; Cancel closes it and keeps the session', async ({ page }) => {
    await signedInOnVault(page);
    await setLocalStorage(page, { unsaved_letter_draft: 'Dear Sam,' });
    // The periodic check (every 5 s) picks the draft up.
    await expect(unsavedIndicator(page)).toBeVisible({ timeout: 12_000 });

    await chooseLogout(page);
    const dialog = page.getByRole('dialog', { name: 'Sign Out Warning' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('list', { name: 'Drafts found' }).getByRole('listitem')).toHaveText([DRAFTS.unsaved_letter_draft]);
    await expect(dialog.getByRole('button', { name: 'Save Drafts & Sign Out' })).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Sign Out Without Saving' })).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeVisible();

    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(page).toHaveURL(/\/vault$/);
    await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
    expect(await getLocalStorage(page, 'unsaved_letter_draft')).toBe('Dear Sam,');
  });

  test('"Sign Out Without Saving" removes every draft key and signs out', async ({ page }) => {
    await signedInOnVault(page);
    await setLocalStorage(page, { unsaved_draft: 'rec-1', unsaved_text_draft: 'some text', unsaved_letter_draft: 'Dear Sam,', vault_thoughts: 'kept' });

    await chooseLogout(page);
    const dialog = page.getByRole('dialog', { name: 'Sign Out Warning' });
    await expect(dialog.getByRole('list', { name: 'Drafts found' }).getByRole('listitem')).toHaveText([
      DRAFTS.unsaved_draft,
      DRAFTS.unsaved_text_draft,
      DRAFTS.unsaved_letter_draft,
    ]);
    await dialog.getByRole('button', { name: 'Sign Out Without Saving' }).click();

    await expect(page).toHaveURL(/\/$/);
    await expectToast(page, 'Logged out successfully');
    await expectSignedOut(page);
    await expect(dialog).toHaveCount(0);
    for (const key of Object.keys(DRAFTS)) expect(await getLocalStorage(page, key), key).toBeNull();
    // A browser-local reflection (the original product's) goes on every sign-out, so the next person
    // on this browser never gets it; reflections are kept in the vault now.
    expect(await getLocalStorage(page, 'vault_thoughts')).toBeNull();
  });

  test('"Save Drafts & Sign Out" saves (saveDrafts event, "Drafts Saved") and then signs out', async ({ page }) => {
    await signedInOnVault(page);
    await setLocalStorage(page, { unsaved_letter_draft: 'Dear Sam,' });
    await page.evaluate(() => {
      const g = globalThis as unknown as BrowserGlobals;
      g.addEventListener('saveDrafts', () => g.localStorage.setItem('e2e_save_drafts_event', 'fired'));
    });

    await chooseLogout(page);
    const dialog = page.getByRole('dialog', { name: 'Sign Out Warning' });
    await dialog.getByRole('button', { name: 'Save Drafts & Sign Out' }).click();

    await expectToast(page, 'Drafts Saved', 'Your work has been saved locally and will be available when you return.');
    expect(await getLocalStorage(page, 'e2e_save_drafts_event')).toBe('fired');
    // Then, a second later, the sign-out itself.
    await expectToast(page, 'Logged out successfully');
    await expect(page).toHaveURL(/\/$/);
    await expectSignedOut(page);
    // The drafts stay for when the user comes back.
    expect(await getLocalStorage(page, 'unsaved_letter_draft')).toBe('Dear Sam,');
  });

  test('without unsaved work, Logout signs out at once (no dialog)', async ({ page }) => {
    await signedInOnVault(page);
    await chooseLogout(page);
    await expectToast(page, 'Logged out successfully');
    await expect(page.getByRole('dialog', { name: 'Sign Out Warning' })).toHaveCount(0);
    await expectSignedOut(page);
  });
});
