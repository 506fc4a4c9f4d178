import type { RecordingEvent } from '@lv/contracts';
import { newDataKey, type StoredEvent } from '@lv/platform/event-store';
import { RecordingKeys, recordingSealing } from './recording-sealing.js';

const recordingId = '0b7a2d2e-5d4f-4c59-8d3e-9f0a1b2c3d4e';
const otherId = '7a2b3c4d-1111-4222-8333-944455556666';
const ownerId = '6f1c9a52-3a8e-4d52-9a55-0f7f3b1f8c11';
const objectKey = `${ownerId}/video_1764590400000.webm`;
const hash = 'a'.repeat(64);

const started: RecordingEvent = {
  type: 'RecordingUploadStarted',
  data: { recordingId, ownerId, type: 'video', title: 'For Sam', bucket: 'vaultmedia', objectKey, contentType: 'video/webm', clientSha256: hash, declaredSize: 1000, startedAt: 't' },
};
const saved: RecordingEvent = {
  type: 'RecordingSaved',
  data: { recordingId, ownerId, type: 'video', title: 'For Sam', bucket: 'vaultmedia', objectKey, contentType: 'video/webm', size: 1000, sha256: hash, savedAt: 't' },
};
const verified: RecordingEvent = { type: 'RecordingHashVerified', data: { recordingId, ownerId, sha256: hash, verifiedAt: 't' } };
const deleted: RecordingEvent = { type: 'RecordingDeleted', data: { recordingId, ownerId, bucket: 'vaultmedia', objectKey, deletedAt: 't' } };
const abandoned: RecordingEvent = { type: 'RecordingUploadAbandoned', data: { recordingId, ownerId, reason: 'stalled', abandonedAt: 't' } };

const sealing = recordingSealing(new RecordingKeys());
const stored = (event: { type: string; data: unknown }, version = 1): StoredEvent => ({
  eventId: 'e', streamId: `recording-${recordingId}`, streamType: 'recording', version, globalPosition: '1', type: event.type, data: event.data, metadata: {}, occurredAt: new Date(0),
});
const titleOf = (event: { data: unknown }) => (event.data as { title: unknown }).title;

describe('recording sealing', () => {
  it('makes the key with the upload, needs it for the save, and none for the other events', () => {
    expect(sealing.keyNeed([started])).toBe('new');
    expect(sealing.keyNeed([saved])).toBe('ensure');
    expect(sealing.keyNeed([verified])).toBe('none');
    expect(sealing.keyNeed([deleted])).toBe('none');
  });

  it('shreds on delete and on an abandoned upload, never otherwise', () => {
    expect(sealing.shreds([deleted])).toBe(true);
    expect(sealing.shreds([abandoned])).toBe(true);
    expect(sealing.shreds([started, saved, verified])).toBe(false);
  });

  it('seals the title and nothing else, and opens it again with the recording’s key', () => {
    const key = newDataKey();
    for (const event of [started, saved]) {
      const sealedEvent = sealing.seal(event, key, recordingId);
      expect(titleOf(sealedEvent)).toMatchObject({ alg: 'A256GCM' });
      expect(JSON.stringify(sealedEvent)).not.toContain('For Sam');
      expect({ ...(sealedEvent.data as object), title: 'x' }).toEqual({ ...event.data, title: 'x' });
      expect(titleOf(sealing.open(stored(sealedEvent), key, recordingId))).toBe('For Sam');
    }
    expect(sealing.seal(verified, null, recordingId)).toBe(verified);
    expect(sealing.open(stored(deleted), null, recordingId).data).toEqual(deleted.data);
  });

  it('gives a null title once the key is gone', () => {
    const sealedEvent = sealing.seal(saved, newDataKey(), recordingId);
    expect(titleOf(sealing.open(stored(sealedEvent), null, recordingId))).toBeNull();
  });

  it('refuses a wrong key, and a title moved into another recording’s event', () => {
    const key = newDataKey();
    const sealedEvent = sealing.seal(saved, key, recordingId);
    expect(() => sealing.open(stored(sealedEvent), newDataKey(), recordingId)).toThrow();
    expect(() => sealing.open(stored(sealedEvent), key, otherId)).toThrow();
  });

  it('cannot seal a title without a key', () => {
    expect(() => sealing.seal(started, null, recordingId)).toThrow(`cannot seal the title of recording ${recordingId}`);
  });

  it('passes a plaintext title (written by a process older than the sealing) and a removed one through', () => {
    expect(titleOf(sealing.open(stored(saved), null, recordingId))).toBe('For Sam');
    expect(titleOf(sealing.open(stored({ ...saved, data: { ...saved.data, title: null } }), null, recordingId))).toBeNull();
  });
});
