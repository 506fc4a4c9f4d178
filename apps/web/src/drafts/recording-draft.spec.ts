import 'fake-indexeddb/auto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { NodeBlob } from '../pages/record/node-blob.test-support.mjs';
import { DRAFT_KEY, discardDraft, loadDraft, readDraft, saveDraft, type RecordingDraft } from './recording-draft.js';
import { storedRecording } from '../pages/record/stored-recording.test-support.js';

const ALICE = '7f8e2a4c-1b3d-4e5f-8a9b-0c1d2e3f4a5b';
const BOB = '2c3d4e5f-6a7b-4c8d-9e0f-1a2b3c4d5e6f';

const draftOf = (owner: string): RecordingDraft => ({
  type: 'video', title: 'For Sam', durationSeconds: 12, mimeType: 'video/webm', size: 4, savedAt: '2026-11-24T10:00:00.000Z', owner,
});

describe('recording draft: bound to its owner', () => {
  // fake-indexeddb keeps Node's Blob, not jsdom's (node-blob.test-support.mjs): the spec uses that one.
  const jsdomBlob = globalThis.Blob;
  beforeAll(() => { globalThis.Blob = NodeBlob; });
  afterAll(() => { globalThis.Blob = jsdomBlob; });

  beforeEach(async () => {
    await discardDraft();
    localStorage.clear();
  });

  it("restores the owner's recording to the owner", async () => {
    await expect(saveDraft(draftOf(ALICE), new Blob(['webm'], { type: 'video/webm' }))).resolves.toBe(true);
    const kept = await loadDraft(ALICE);
    expect(kept?.draft).toEqual(draftOf(ALICE));
    expect(kept?.blob).toBeInstanceOf(Blob);
    expect(await kept!.blob!.text()).toBe('webm');
  });

  it('never restores it to the next person on the same browser, and keeps it for its owner', async () => {
    await saveDraft(draftOf(ALICE), new Blob(['webm'], { type: 'video/webm' }));
    await expect(loadDraft(BOB)).resolves.toBeNull();
    // Alice chose "Save Drafts & Sign Out": her draft is still there when she comes back.
    expect((await loadDraft(ALICE))?.blob).toBeInstanceOf(Blob);
  });

  it('does not restore a draft stored before drafts had owners, and drops its blob', async () => {
    localStorage.setItem(DRAFT_KEY, JSON.stringify({ ...draftOf(ALICE), owner: undefined }));
    expect(readDraft()).toBeNull();
    await expect(loadDraft(BOB)).resolves.toBeNull();
    expect(await storedRecording()).toBeUndefined();
  });

  it('does not hand out a blob whose stored owner differs from the description', async () => {
    await saveDraft(draftOf(ALICE), new Blob(['alice'], { type: 'video/webm' }));
    // Someone rewrites the description to claim the recording.
    localStorage.setItem(DRAFT_KEY, JSON.stringify(draftOf(BOB)));
    const kept = await loadDraft(BOB);
    expect(kept?.blob).toBeNull();
  });

  it('discardDraft removes the stored recording as well as its description', async () => {
    await saveDraft(draftOf(ALICE), new Blob(['webm'], { type: 'video/webm' }));
    expect(await storedRecording()).toBeDefined();
    await discardDraft();
    expect(localStorage.getItem(DRAFT_KEY)).toBeNull();
    expect(await storedRecording()).toBeUndefined();
  });
});
