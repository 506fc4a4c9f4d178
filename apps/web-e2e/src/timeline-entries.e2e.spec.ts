import { expect, test } from './support/test.js';
import { letterItem, marker, openLetters, signUpWithToken, writeLetterViaApi } from './support/letters.js';
import { setTier } from './support/media.js';

// The timeline opens and deletes every kind of entry (issue 35). A letter, on a phone: "View" opens
// the letter itself over the timeline, and Delete removes it through Letters, from the letters page
// too. (Court documents: court.e2e.spec.ts; recordings: media.e2e.spec.ts.)

test.use({ viewport: { width: 412, height: 823 }, isMobile: true, hasTouch: true });

test('a letter on the timeline, on a phone: View opens its words, Delete removes it from the timeline and the letters', async ({ page }) => {
  test.slow();
  const { credentials, accessToken } = await signUpWithToken(page.request, 'timeline-letter');
  // The timeline is a paid page (Essentials and up).
  setTier(credentials.email, 'essentials');
  const title = marker('For Ellie at sixteen');
  await writeLetterViaApi(page.request, accessToken, { title, content: 'You were brave on your first day.' });

  // The timeline is a read model fed by events: reload until the entry has arrived.
  const entry = page.getByTestId('timeline-entry').filter({ hasText: title });
  await expect.poll(async () => {
    await page.goto('/timeline');
    await expect(page.getByRole('heading', { level: 1, name: 'Your Timeline' })).toBeVisible();
    await page.getByTestId('timeline-entry').first().or(page.getByText('Your timeline is empty')).waitFor();
    return entry.count();
  }, { timeout: 30_000, intervals: [500, 1_000, 2_000] }).toBe(1);
  await expect(entry).toHaveAttribute('data-entry-type', 'letter');

  const view = entry.getByRole('button', { name: `View ${title}` });
  await expect(view).toBeInViewport();
  await view.click();
  const viewer = page.getByRole('dialog', { name: title });
  await expect(viewer).toContainText('You were brave on your first day.');
  await expect(page).toHaveURL(/\/timeline$/);
  await viewer.getByRole('button', { name: 'Close' }).click();
  await expect(viewer).toHaveCount(0);

  await entry.getByRole('button', { name: `Delete ${title}` }).click();
  const confirm = page.getByRole('dialog', { name: 'Are you sure?' });
  await expect(confirm).toContainText(`“${title}” will be deleted from your letters and your timeline. This cannot be undone.`);
  const yes = confirm.getByRole('button', { name: 'Delete', exact: true });
  await expect(yes).toBeInViewport();
  await yes.click();
  await expect(entry).toHaveCount(0);
  await expect(page.getByText('Entry deleted')).toBeVisible();

  // Gone in Letters too, and still gone after a reload of the timeline.
  await openLetters(page);
  await expect(page.getByText('No letters yet')).toBeVisible();
  await expect(letterItem(page, title)).toHaveCount(0);
  await page.goto('/timeline');
  await expect(page.getByRole('heading', { level: 1, name: 'Your Timeline' })).toBeVisible();
  await page.getByTestId('timeline-entry').first().or(page.getByText('Your timeline is empty')).waitFor();
  await expect(entry).toHaveCount(0);
});
