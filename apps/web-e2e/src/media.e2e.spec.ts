import { MediaMessages, PLANS, RECORDER_TICK_MS } from '@lv/contracts';
import { expect, test, type Page } from './support/test.js';
import { newCredentials, signedInOnVault } from './support/auth.js';
import { captureUpload, chooseType, readyState, recordClip, recorderTimer, seekTo, setTier, settledPosition, titleField } from './support/media.js';
import { expectToast, getLocalStorage, unsavedIndicator } from './support/ui.js';

// Record Messages, /record-media and the timeline (owner-core spec, sections 2, 4, 5, 7, 8, 9; issue 4),
// in Chromium with a fake camera and microphone.

test.use({ colorScheme: 'light' });

/** A signed-in user with the given tier, on the page (the page load's session refresh carries the tier). */
async function signedInWithTier(page: Page, tier: 'none' | 'essentials' | 'pro', path: string): Promise<string> {
  const credentials = newCredentials(`media-${tier}`);
  await signedInOnVault(page, credentials);
  if (tier !== 'none') setTier(credentials.email, tier);
  await page.goto(path);
  return credentials.email;
}

async function saveAs(page: Page, title: string): Promise<void> {
  await titleField(page).fill(title);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expectToast(page, 'Recording Saved', 'Successfully uploaded.');
}

test.describe('recording and the timeline', () => {

  test('records a video and an audio note, saves both, lists them, plays one on the timeline and deletes one', async ({ page }) => {
    await signedInWithTier(page, 'pro', '/record');
    await expect(page.getByRole('heading', { level: 1, name: 'Record Messages' })).toBeVisible();
    await expect(page.getByText('No recordings found.')).toBeVisible();

    // Video (the default): 2 s on the timer, stop, preview, save.
    await recordClip(page, 2);
    // While a recording waits to be saved, it is the unsaved_draft the shell warns about.
    await expect.poll(() => getLocalStorage(page, 'unsaved_draft')).not.toBeNull();
    await expect(unsavedIndicator(page)).toBeVisible();
    const videoUpload = captureUpload(page);
    await saveAs(page, 'For Sam, on his birthday');
    const video = await videoUpload;
    expect(video.status).toBe(200);
    expect(video.contentType).toBe('video/webm');
    // Stored as WebM (the server refuses anything without the EBML header) under {userId}/video_{timestamp}.webm.
    expect(video.recording.content_type).toBe('video/webm');
    expect(video.recording.file_path).toMatch(/^[0-9a-f-]{36}\/video_\d{13}\.webm$/);
    expect(video.recording.size).toBeGreaterThan(10_000);
    // After a save: the success notice, and blob, timer and title reset; the draft is gone.
    await expect(page.getByText('✅ Success!')).toBeVisible();
    await expect(page.getByText('Your message has been saved to your Vault & Timeline.')).toBeVisible();
    await expect(titleField(page)).toHaveValue('');
    await expect(recorderTimer(page)).toHaveText('00:00');
    await expect(page.getByTestId('recording-preview')).toHaveCount(0);
    expect(await getLocalStorage(page, 'unsaved_draft')).toBeNull();
    await expect(unsavedIndicator(page)).toHaveCount(0);

    // Audio, paused and resumed on the way.
    await chooseType(page, 'Audio');
    await page.getByRole('button', { name: 'Start Recording' }).click();
    await expect(recorderTimer(page)).toHaveText('00:01', { timeout: 5000 });
    await page.getByRole('button', { name: 'Pause' }).click();
    await expect(page.getByTestId('recorder-status')).toHaveText('Paused');
    const paused = await recorderTimer(page).textContent();
    // Sentinel: an interval of the recorder's own period, started in the page after the pause, has
    // fired twice; a recorder still ticking would have ticked (and rendered) before it.
    await page.evaluate((tickMs) => new Promise<void>((resolve) => {
      let fired = 0;
      const timer = setInterval(() => {
        if (++fired < 2) return;
        clearInterval(timer);
        resolve();
      }, tickMs);
    }), RECORDER_TICK_MS);
    expect(await recorderTimer(page).textContent()).toBe(paused);
    await page.getByRole('button', { name: 'Resume' }).click();
    await expect(recorderTimer(page)).toHaveText('00:02', { timeout: 5000 });
    await page.getByRole('button', { name: 'Stop' }).click();
    const audioUpload = captureUpload(page);
    await saveAs(page, 'A voice note');
    const audio = await audioUpload;
    expect(audio.status).toBe(200);
    expect(audio.contentType).toBe('audio/webm');
    expect(audio.recording.file_path).toMatch(/\/audio_\d{13}\.webm$/);
    expect(audio.recording.size).toBeGreaterThan(1000);

    // "Your Recordings": newest first, refreshable.
    const list = page.getByRole('list', { name: 'Your Recordings' });
    await page.getByRole('button', { name: 'Refresh recordings' }).click();
    await expect(list.getByTestId('recording-row')).toHaveCount(2);
    await expect(list.getByTestId('recording-row').first()).toContainText('A voice note');
    await expect(list.getByTestId('recording-row').nth(1)).toContainText('For Sam, on his birthday');

    // The timeline: both, newest first; Play reaches a decoded frame through the signed, ranged link.
    await page.goto('/timeline');
    await expect(page.getByRole('heading', { level: 1, name: 'Your Timeline' })).toBeVisible();
    const entries = page.getByTestId('timeline-entry');
    await expect(entries).toHaveCount(2);
    await expect(entries.first()).toContainText('A voice note');
    const videoEntry = entries.filter({ hasText: 'For Sam, on his birthday' });
    await videoEntry.getByRole('button', { name: 'Play' }).click();
    const player = videoEntry.getByTestId('media-player');
    await expect(player).toBeVisible();
    await expect.poll(() => readyState(player), { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
    await expect(player).toHaveAttribute('src', /^\/api\/media\/play\/[0-9a-f-]{36}\?u=[0-9a-f-]{36}&exp=\d+&sig=/);
    // "View Media" / "Hide Media" toggle the audio player.
    const audioEntry = entries.filter({ hasText: 'A voice note' });
    await audioEntry.getByRole('button', { name: 'View Media' }).click();
    await expect(audioEntry.getByTestId('media-player')).toBeVisible();
    await expect.poll(() => readyState(audioEntry.getByTestId('media-player')), { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
    await audioEntry.getByRole('button', { name: 'Hide Media' }).click();
    await expect(audioEntry.getByTestId('media-player')).toHaveCount(0);

    // The link is bound to its owner: without this browser's cookie it is refused.
    const src = await player.getAttribute('src');
    const anonymous = await page.context().browser()!.newContext();
    expect((await anonymous.request.get(new URL(src!, page.url()).toString())).status()).toBe(403);
    await anonymous.close();

    // Delete the audio note: confirmed, then gone (object and entry).
    await audioEntry.getByRole('button', { name: 'Delete A voice note' }).click();
    const dialog = page.getByRole('dialog', { name: 'Are you sure?' });
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expectToast(page, 'Entry deleted');
    await expect(entries).toHaveCount(1);

    // The enhanced timeline groups by day and filters by type.
    await page.goto('/enhanced-timeline');
    const filters = page.getByRole('group', { name: 'Filter by type' });
    await expect(filters.getByRole('button', { name: 'Video (1)' })).toBeVisible();
    await filters.getByRole('button', { name: 'Audio (0)' }).click();
    await expect(page.getByText('Nothing of this kind yet.')).toBeVisible();
    await filters.getByRole('button', { name: 'All (1)' }).click();
    await expect(page.getByTestId('timeline-entry')).toHaveCount(1);

    // The vault home counts what is left.
    await page.goto('/vault');
    await expect(page.getByTestId('stat-videos-saved')).toHaveText('1');
    await expect(page.getByTestId('stat-days-active')).toHaveText('1');
  });

  test('an upload whose connection is cut goes on from what the vault holds; the playback copy plays and seeks', async ({ page }) => {
    await signedInWithTier(page, 'pro', '/record');
    await recordClip(page, 3);
    // tus-js-client asks where the upload stands (HEAD), sends the body (PATCH): that connection is lost;
    // it asks again and goes on from what the vault holds.
    const requests: string[] = [];
    await page.route('**/api/media/tus/*', async (route) => {
      const method = route.request().method();
      requests.push(method);
      if (method === 'PATCH' && requests.filter((m) => m === 'PATCH').length === 1) await route.abort('connectionreset');
      else await route.continue();
    });
    const upload = captureUpload(page);
    await saveAs(page, 'Sent twice, saved once');
    const saved = await upload;
    expect(saved.status).toBe(200);
    expect(requests).toEqual(['HEAD', 'PATCH', 'HEAD', 'PATCH']);
    await page.unroute('**/api/media/tus/*');

    // The worker makes the playback copy (H.264/AAC MP4): the list shows its length once it is there.
    const row = page.getByRole('list', { name: 'Your Recordings' }).getByTestId('recording-row').filter({ hasText: 'Sent twice, saved once' });
    await expect.poll(async () => {
      await page.getByRole('button', { name: 'Refresh recordings' }).click();
      return row.textContent();
    }, { timeout: 90_000, message: 'the playback copy (its length in the list)' }).toMatch(/· 0:0[2-4]/);

    // The timeline plays the copy (video/mp4), and a seek lands where it was asked to.
    await page.goto('/timeline');
    const entry = page.getByTestId('timeline-entry').filter({ hasText: 'Sent twice, saved once' });
    // (The entry's poster comes from the same route with poster=1: the player's own read is the other.)
    const played = page.waitForResponse((r) => r.url().includes('/api/media/play/') && !r.url().includes('poster=1') && r.request().method() === 'GET');
    await entry.getByRole('button', { name: 'Play' }).click();
    expect((await played).headers()['content-type']).toBe('video/mp4');
    const player = entry.getByTestId('media-player');
    await expect.poll(() => readyState(player), { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
    await seekTo(player, 2);
    await expect.poll(() => settledPosition(player), { timeout: 15_000 }).toBeGreaterThanOrEqual(1.9);
  });

  test('/record-media goes back one page with Back and to the timeline 1.5 s after a save', async ({ page }) => {
    await signedInWithTier(page, 'pro', '/vault');
    await page.goto('/record-media');
    await page.getByRole('button', { name: 'Back' }).click();
    await expect(page).toHaveURL(/\/vault$/);
    await page.goto('/record-media');
    await recordClip(page, 1);
    await titleField(page).fill('Straight to the timeline');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByText('✅ Success!')).toBeVisible();
    await expect(page).toHaveURL(/\/timeline$/, { timeout: 5000 });
    await expect(page.getByTestId('timeline-entry').filter({ hasText: 'Straight to the timeline' })).toBeVisible();
  });

  test('keeps an unsaved recording as a draft across a reload', async ({ page }) => {
    await signedInWithTier(page, 'pro', '/record');
    await recordClip(page, 1);
    await titleField(page).fill('Not saved yet');
    await expect.poll(async () => JSON.parse((await getLocalStorage(page, 'unsaved_draft')) ?? '{}').title).toBe('Not saved yet');
    await page.reload();
    await expectToast(page, 'Draft restored');
    await expect(page.getByTestId('recording-preview')).toBeVisible();
    await expect(titleField(page)).toHaveValue('Not saved yet');
    await page.getByRole('button', { name: 'Record Again' }).click();
    await expect.poll(() => getLocalStorage(page, 'unsaved_draft')).toBeNull();
  });
});

// The plans table (contracts plans.ts) walked per tier, on a desktop and on a phone: the pricing cards
// say what each plan includes, and the recorder tells a user whose plan does not include video or
// audio saving before he records; a Pro user records, saves, and is told it went to his Vault & Timeline.
for (const [device, viewport] of [['desktop', { width: 1280, height: 800 }], ['phone', { width: 412, height: 823 }]] as const) {
  test.describe(`the plans' gates on a ${device}`, () => {
    test.use({ viewport });

    for (const tier of ['none', 'essentials'] as const) {
      test(`tier ${tier}: pricing lists the table's lines; the recorder refuses video and audio before recording`, async ({ page }) => {
        await signedInWithTier(page, tier, '/pricing');
        for (const plan of PLANS) {
          const card = page.getByRole('list', { name: `${plan.name} includes` });
          await expect(card.getByRole('listitem')).toHaveText([...plan.features]);
        }
        await page.goto('/record');
        for (const [type, heading, words] of [['Video', 'Video messages are a paid feature', MediaMessages.videoPlanRequired], ['Audio', 'Audio messages are a paid feature', MediaMessages.audioPlanRequired]] as const) {
          await chooseType(page, type);
          await expect(page.getByRole('heading', { name: heading })).toBeVisible();
          await expect(page.getByText(words)).toBeVisible();
          await expect(page.getByRole('button', { name: 'Start Recording' })).toHaveCount(0);
          await expect(page.getByRole('link', { name: 'Upgrade your plan' })).toHaveAttribute('href', '/pricing');
        }
        // The timeline: Essentials has it, no plan does not.
        await page.goto('/timeline');
        if (tier === 'none') await expect(page.getByRole('heading', { name: 'Your Timeline is a paid feature' })).toBeVisible();
        else {
          await expect(page.getByText('Your timeline is empty')).toBeVisible();
          await expect(page.getByTestId('upgrade-prompt')).toHaveCount(0);
        }
      });
    }

    test('tier pro: records a video, saves it, and is told it is in the Vault & Timeline', async ({ page }) => {
      await signedInWithTier(page, 'pro', '/record');
      await chooseType(page, 'Audio');
      await expect(page.getByRole('button', { name: 'Start Recording' })).toBeVisible();
      await chooseType(page, 'Video');
      await expect(page.getByTestId('upgrade-prompt')).toHaveCount(0);
      await recordClip(page, 1);
      await saveAs(page, `Pro plan video on a ${device}`);
      await expect(page.getByText(MediaMessages.savedToVaultAndTimeline)).toBeVisible();
      await expect(page.getByRole('list', { name: 'Your Recordings' })).toContainText(`Pro plan video on a ${device}`);
    });
  });
}

test.describe('title rules', () => {
  test('"Title *" is required and at most 100 characters: "Missing Info" / "Add a title."', async ({ page }) => {
    await signedInWithTier(page, 'pro', '/record');
    // Saving with no recording.
    await titleField(page).fill('A title but no recording');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expectToast(page, 'Missing Info', 'Add a title.');
    // Saving a recording with a blank title.
    await titleField(page).fill('   ');
    await recordClip(page, 1);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expectToast(page, 'Missing Info', 'Add a title.');
    await expect(page.getByTestId('recording-preview')).toBeVisible();
    // At most 100 characters.
    await titleField(page).fill('x'.repeat(120));
    await expect(titleField(page)).toHaveValue('x'.repeat(100));
    await expect(page.getByText('100/100')).toBeVisible();
  });
});
