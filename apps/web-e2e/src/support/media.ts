import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, type APIRequestContext, type Locator, type Page } from './test.js';

/**
 * Recording, tiers and media playback for the browser tests. Chromium runs with a fake camera and
 * microphone (playwright.config.ts), so getUserMedia and MediaRecorder record real WebM.
 */

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
const BASE_URL = process.env.BASE_URL ?? 'http://127.0.0.1:3000';

export interface StackInfo {
  url: string;
  stackId: string;
  dir: string;
  /** vault-media's byte listener (where music:add sends its file), when the stack recorded it. */
  mediaUrl?: string;
}

/** The stack under test: the `.data/<dir>/stack.json` that tools/dev/stack.mjs wrote for BASE_URL. */
export function stackUnderTest(): StackInfo {
  const dataDir = join(repoRoot, '.data');
  const candidates = [join(dataDir, 'stack.json'), ...readdirSync(dataDir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => join(dataDir, e.name, 'stack.json'))];
  for (const file of candidates) {
    if (!existsSync(file)) continue;
    const info = JSON.parse(readFileSync(file, 'utf8')) as { url: string; stackId?: string; mediaUrl?: string };
    if (new URL(info.url).origin === new URL(BASE_URL).origin) return { url: info.url, stackId: info.stackId ?? '', dir: dirname(file), mediaUrl: info.mediaUrl };
  }
  throw new Error(`no .data/**/stack.json describes ${BASE_URL}: start the stack with tools/dev/stack.mjs (npm start or npm test)`);
}

/**
 * Sets a user's subscription tier the way an operator does: `npm run vault -- user:tier <email> <tier>`
 * (the ops CLI signs an operator token with the stack's identity key and calls identity over NATS).
 * The user's next session refresh (a page load) carries the new tier.
 */
export function setTier(email: string, tier: 'none' | 'essentials' | 'pro' | 'legacy'): void {
  runOperatorCommand('user:tier', email, tier);
}

/**
 * Puts a user on a plan and signs in again: the returned access token carries the new tier (saving
 * video or audio is Pro and Legacy, per the plans table).
 */
export async function tokenOnPlan(request: APIRequestContext, credentials: { email: string; password: string }, tier: 'none' | 'essentials' | 'pro' | 'legacy'): Promise<string> {
  setTier(credentials.email, tier);
  const signIn = await request.post('/api/auth/sign-in', { data: credentials });
  if (signIn.status() !== 200) throw new Error(`sign-in after the plan change answered ${signIn.status()}: ${await signIn.text()}`);
  return ((await signIn.json()) as { accessToken: string }).accessToken;
}

/**
 * `npm run vault -- <command> ...` against the stack under test, the way an operator runs it (the ops
 * CLI signs an operator token with the stack's identity key and calls the services over NATS).
 */
export function runOperatorCommand(...args: string[]): string {
  const stack = stackUnderTest();
  return execFileSync(process.execPath, [join(repoRoot, 'tools', 'cli', 'dist', 'main.js'), ...args], {
    cwd: repoRoot,
    env: {
      ...process.env, STACK_ID: stack.stackId, JWT_PRIVATE_KEY: join(stack.dir, 'keys', 'jwt-private.pem'), NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
      ...(stack.mediaUrl ? { VAULT_MEDIA_URL: stack.mediaUrl } : {}),
    },
    stdio: 'pipe',
    timeout: 20_000,
  }).toString();
}

export const titleField = (page: Page): Locator => page.getByLabel('Title *');
export const recorderTimer = (page: Page): Locator => page.getByTestId('recorder-timer');

export async function chooseType(page: Page, type: 'Video' | 'Audio'): Promise<void> {
  const button = page.getByRole('group', { name: 'Recording type' }).getByRole('button', { name: type });
  await button.click();
  await expect(button).toHaveAttribute('aria-pressed', 'true');
}

/** Records for `seconds` on the timer (1 s tick, mm:ss) and stops; the preview then shows. */
export async function recordClip(page: Page, seconds = 2): Promise<void> {
  await page.getByRole('button', { name: 'Start Recording' }).click();
  await expect(page.getByTestId('recorder-status')).toHaveText('Recording');
  await expect(recorderTimer(page)).toHaveText(`00:${String(seconds).padStart(2, '0')}`, { timeout: (seconds + 5) * 1000 });
  await page.getByRole('button', { name: 'Stop' }).click();
  await expect(page.getByTestId('recording-preview')).toBeVisible();
}

export interface CapturedUpload {
  /** The format the upload was opened with (the ticket's, from the recording's own type). */
  contentType: string | undefined;
  status: number;
  /** What the server stored: it accepts only bodies that start with WebM's EBML header (1a45dfa3). */
  recording: { content_type: string; size: number; blob_hash: string; file_path: string };
}

/**
 * The next upload: its ticket (POST /api/media/uploads) and the tus PATCH that completed it
 * (200 with the saved recording; the PATCHes before it, if any, answer 204 with an offset).
 */
export async function captureUpload(page: Page): Promise<CapturedUpload> {
  const ticket = page.waitForResponse((r) => r.request().method() === 'POST' && /\/api\/media\/uploads$/.test(r.url()), { timeout: 30_000 });
  const response = await page.waitForResponse((r) => r.request().method() === 'PATCH' && /\/api\/media\/tus\/[0-9a-f-]{36}$/.test(r.url()) && r.status() !== 204, { timeout: 60_000 });
  const opened = (await (await ticket).json()) as { contentType?: string };
  return { contentType: opened.contentType, status: response.status(), recording: await response.json() };
}

/** Moves the media element's playback position (a seek, as its timeline would). */
export async function seekTo(player: Locator, seconds: number): Promise<void> {
  await player.evaluate((el, to) => Reflect.set(el, 'currentTime', to), seconds);
}

/** Where a seek landed, to a tenth of a second, once the element has a frame there; -1 while it is still seeking. */
export async function settledPosition(player: Locator): Promise<number> {
  return player.evaluate((el) => {
    const ready = Reflect.get(el, 'seeking') === false && Number(Reflect.get(el, 'readyState')) >= 2;
    return ready ? Math.round(Number(Reflect.get(el, 'currentTime')) * 10) / 10 : -1;
  });
}

/** The media element's readyState (2 = HAVE_CURRENT_DATA: a frame or sample is decoded). */
export async function readyState(player: Locator): Promise<number> {
  return player.evaluate((el) => (el as unknown as { readyState: number }).readyState);
}

/** A real WAV that Chromium decodes and plays: `seconds` of a quiet 440 Hz tone, 8 kHz mono 8-bit. */
export function wavTone(seconds: number): Buffer {
  const samples = Buffer.from(Array.from({ length: 8000 * seconds }, (_, i) => 128 + Math.round(20 * Math.sin((2 * Math.PI * 440 * i) / 8000))));
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(36 + samples.length, 4);
  header.write('WAVEfmt ', 8, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(8000, 24);
  header.writeUInt32LE(8000, 28);
  header.writeUInt16LE(1, 32);
  header.writeUInt16LE(8, 34);
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(samples.length, 40);
  return Buffer.concat([header, samples]);
}

/** A recording saved through the API (setup only): a WebM body (EBML header) of its own random bytes. */
export async function saveRecordingViaApi(request: APIRequestContext, accessToken: string, title: string): Promise<{ id: string; body: Buffer }> {
  const body = Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), randomBytes(64 * 1024)]);
  const auth = { authorization: `Bearer ${accessToken}` };
  const ticket = await request.post('/api/media/uploads', { headers: auth, data: { type: 'video', title, sha256: createHash('sha256').update(body).digest('hex'), size: body.length } });
  expect(ticket.status(), await ticket.text()).toBe(201);
  const { uploadUrl } = (await ticket.json()) as { uploadUrl: string };
  const put = await request.put(uploadUrl, { headers: { ...auth, 'content-type': 'video/webm' }, data: body });
  expect(put.status(), await put.text()).toBe(201);
  return { id: ((await put.json()) as { id: string }).id, body };
}
