import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from './support/test.js';
import { newCredentials, signedInOnVault } from './support/auth.js';
import { runOperatorCommand, setTier, wavTone } from './support/media.js';
import { expectToast } from './support/ui.js';

// The Parent Circle (/community, /parent-circle, /parent-community; access-family spec, "Parent Circle
// Community", sections 2-9): the music library (vault-media; tracks added by an operator with
// `npm run vault -- music:add`), the discussion and "Submit Your Story" (letters), for Pro and Legacy.

const UPGRADE = 'This feature is available to Vault Pro & Legacy members only. Upgrade to unlock.';
const NO_AUDIO = 'No audio files found in the music library';

/** The library as the operators see it (music:list). */
const libraryTracks = () => JSON.parse(runOperatorCommand('music:list')) as { id: string; fileName: string }[];

async function signedInAs(page: Page, tier: 'none' | 'essentials' | 'pro', path: string): Promise<void> {
  const credentials = newCredentials(`circle-${tier}`);
  await signedInOnVault(page, credentials);
  if (tier !== 'none') setTier(credentials.email, tier);
  await page.goto(path);
}

/** Waits until the audio element really plays: not paused, time moving. */
async function expectPlaying(page: Page, label: string): Promise<void> {
  const player = page.getByLabel(label);
  await expect(player).toBeVisible();
  await expect.poll(() => player.evaluate((el) => { const audio = el as unknown as { paused: boolean; currentTime: number }; return !audio.paused && audio.currentTime > 0; }), { timeout: 15_000 }).toBe(true);
}

test.describe('Parent Circle community', () => {

  test('a member without Pro or Legacy sees the upgrade text and the way to the plans, on all three addresses', async ({ page }) => {
    await signedInAs(page, 'essentials', '/community');
    for (const path of ['/community', '/parent-circle', '/parent-community']) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1, name: 'Parent Circle Community' })).toBeVisible();
      await expect(page.getByText(UPGRADE)).toBeVisible();
      await expect(page.getByRole('link', { name: 'See the plans' })).toHaveAttribute('href', '/pricing');
      await expect(page.getByRole('button', { name: 'Legacy Music Playlist' })).toHaveCount(0);
    }
    // The vault home's Listen Now says the same instead of playing.
    await page.goto('/vault');
    await page.getByRole('button', { name: 'Listen Now' }).click();
    await expect(page.getByText(UPGRADE)).toBeVisible();
  });

  test('a Pro member finds the library empty, an operator adds a track, the member plays it, posts, likes and submits a story', async ({ page }) => {
    // A fresh library: nothing left from an earlier run of this spec.
    for (const track of libraryTracks()) runOperatorCommand('music:remove', track.id);
    await signedInAs(page, 'pro', '/parent-community');

    // The playlist is collapsed and loads when first expanded: empty, said plainly.
    const disclosure = page.getByRole('button', { name: 'Legacy Music Playlist' });
    await expect(disclosure).toHaveAttribute('aria-expanded', 'false');
    const listed = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/community/music');
    await disclosure.click();
    expect((await listed).status()).toBe(200);
    await expect(disclosure).toHaveAttribute('aria-expanded', 'true');
    await expect(page.getByTestId('music-empty')).toContainText(NO_AUDIO);
    await expectToast(page, NO_AUDIO);

    // An operator adds a track: `npm run vault -- music:add <file>`, its bytes to vault-media's byte listener.
    const dir = mkdtempSync(join(tmpdir(), 'lv-music-'));
    try {
      const file = join(dir, 'meditation-evening-calm.wav');
      writeFileSync(file, wavTone(2));
      const added = JSON.parse(runOperatorCommand('music:add', file)) as { title: string; category: string };
      expect(added).toMatchObject({ title: 'Evening Calm', category: 'meditation' });
      // A file that is not the audio its name says is refused.
      const fake = join(dir, 'motivation-fake.mp3');
      writeFileSync(fake, 'not audio at all');
      expect(() => runOperatorCommand('music:add', fake)).toThrow(/not the audio its name says/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(libraryTracks().map((t) => t.fileName)).toEqual(['meditation-evening-calm.wav']);

    // The member plays it.
    await page.reload();
    await page.getByRole('button', { name: 'Legacy Music Playlist' }).click();
    const tracks = page.getByRole('list', { name: 'Tracks' });
    await expect(tracks.getByText('Evening Calm')).toBeVisible();
    await expect(tracks.getByText('Meditation')).toBeVisible();
    await page.getByRole('button', { name: 'Play Evening Calm' }).click();
    await expectPlaying(page, 'Evening Calm (Meditation)');

    // A post, signed "A parent" (the name is opt-in), liked once, still there after a reload.
    const form = page.getByRole('form', { name: 'New post' });
    await form.getByRole('button', { name: 'Post' }).click();
    await expect(form.getByRole('alert')).toHaveText('Please write something to share.');
    const words = `Forty days without a call ${Date.now()}`;
    await form.getByLabel('Share with the circle').fill(words);
    await form.getByRole('button', { name: 'Post' }).click();
    await expectToast(page, 'Posted to the circle');
    const post = page.getByRole('article', { name: 'Post by A parent' }).filter({ hasText: words });
    await expect(post).toBeVisible();
    const like = post.getByRole('button', { name: 'Like post by A parent' });
    await expect(like).toHaveAttribute('aria-pressed', 'false');
    await like.click();
    await expect(like).toHaveAttribute('aria-pressed', 'true');
    await expect(post.getByTestId('like-count')).toHaveText('1');
    await page.reload();
    const kept = page.getByRole('article', { name: 'Post by A parent' }).filter({ hasText: words });
    await expect(kept.getByRole('button', { name: 'Like post by A parent' })).toHaveAttribute('aria-pressed', 'true');
    await expect(kept.getByTestId('like-count')).toHaveText('1');

    // Submit Your Story: refused empty with the spec's words, then kept.
    await page.getByRole('button', { name: 'Submit Your Story' }).click();
    const dialog = page.getByRole('dialog', { name: 'Submit Your Story' });
    await dialog.getByRole('button', { name: 'Submit Story' }).click();
    await expect(dialog.getByRole('alert')).toHaveText('Please enter your story');
    await dialog.getByLabel('Your story').fill('Week 12. It got a little better when I started writing to them.');
    const sent = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/community/stories');
    await dialog.getByRole('button', { name: 'Submit Story' }).click();
    expect((await sent).status()).toBe(201);
    await expect(dialog).toBeHidden();
    await expectToast(page, 'Thank you for sharing your story. It will be read with care before anything is shared.');

    // The vault home's Listen Now plays from the same library.
    await page.goto('/vault');
    await page.getByRole('button', { name: 'Listen Now' }).click();
    await expectPlaying(page, 'Evening Calm (Meditation)');
  });
});
