import { randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import { answerTable, readerMatrixTests, runReaderMatrix, startMatrixService, type MatrixService, type ReaderMatrixResult } from '@lv/testing';

// Every timeline handler against every kind of caller (libs/testing runReaderMatrix), compared with the
// table below. The timeline keeps no words, so the owner's "secrets" are the ids of the owner's
// entries: a stranger's reply that names one has seen into the vault.

jest.setTimeout(120_000);

const ANSWERS = answerTable(`
subject                             anonymous owner  other-owner admin     operator | timeline letters court-journal who-i-am if-im-not-there all-sections | other-vault expired revoked
rpc.timeline.stats                  unauth    ok     ok          ok        forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
# The owner's timeline, and a viewer's of the timeline section; another vault's viewer sees his own.
rpc.timeline.list                   unauth    ok     ok          ok        forbid   | ok       forbid  forbid        forbid   forbid          ok           | ok          expired expired
rpc.timeline.entry                  unauth    ok     NOT_FOUND   NOT_FOUND forbid   | ok       forbid  forbid        forbid   forbid          ok           | NOT_FOUND   expired expired
# The owner waits for his own deletion to reach the timeline; no viewer does.
rpc.timeline.await-entry-gone       unauth    ok     ok          ok        forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.timeline.op.rebuild-projections unauth    forbid forbid      forbid    ok       | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.timeline.health                 ok        ok     ok          ok        ok       | ok       ok      ok            ok       ok              ok           | ok          ok      ok
`);

describe('timeline reader matrix', () => {
  let service: MatrixService;
  let result: ReaderMatrixResult;
  const letterId = randomUUID();
  const recordingId = randomUUID();

  /** An entry as the consumers write it (the sources' events are another spec's subject). */
  const seed = (owner: string, source: 'letters' | 'vault-media', id: string) =>
    service.running.core.orm.em.fork().execute(
      `insert into timeline_entries (source, id, owner_id, type, entry_type, metadata, "timestamp", created_at)
       values (?, ?, ?, ?, ?, '{}'::jsonb, now(), now())`,
      [source, id, owner, source === 'letters' ? 'letter' : 'video', source === 'letters' ? 'message' : 'media'],
    );

  beforeAll(async () => {
    service = await startMatrixService({
      label: 'timelinemx',
      definition: async () => (await import('../src/timeline.definition.js')).timelineService,
      // No source service answers here: titles fall back at once instead of waiting.
      env: { TIMELINE_TITLES_TIMEOUT_MS: '200' },
    });
    const { ownerId, anotherOwnerId } = service.callers;
    await seed(ownerId, 'letters', letterId);
    await seed(ownerId, 'vault-media', recordingId);
    await seed(anotherOwnerId, 'letters', randomUUID());

    result = await runReaderMatrix(service, {
      answers: ANSWERS,
      ownerTier: 'pro',
      payloads: { 'rpc.timeline.entry': { id: recordingId }, 'rpc.timeline.await-entry-gone': { id: recordingId, timeoutMs: 0 } },
      ownerSecrets: [letterId, recordingId],
      ownerReads: ['rpc.timeline.list', 'rpc.timeline.entry'],
    });
  });

  afterAll(async () => {
    await service?.close();
  });

  readerMatrixTests(() => result);

  it('shows a viewer the owner’s timeline through the owner’s handler, limited to the sections his key opens', async () => {
    const { rpc, viewers, ownerId, anotherOwnerId } = service.callers;
    // The matrix ran the operator's rebuild too, which replays the (empty) source streams: seed again.
    await seed(ownerId, 'letters', letterId);
    await seed(ownerId, 'vault-media', recordingId);
    // A viewer of this vault whose key opens the timeline and Letters reads the owner's timeline through the same handler as the owner.
    const viewer = viewers.issue(ownerId, ['timeline', 'letters']);
    const asViewer = await rpc.call<{ entries: { id: string }[] }>('rpc.timeline.list', {}, viewer.token);
    const asOwner = await rpc.call<{ entries: { id: string }[] }>('rpc.timeline.list', {}, service.callers.tokenOf(ownerId, { tier: 'pro' }));
    expect(asViewer.entries.map((e) => e.id).sort()).toEqual([letterId, recordingId].sort());
    expect(asViewer).toEqual(asOwner);
    // A key of the timeline alone: the recording, not the letter (listed or asked for by id).
    const timelineOnly = viewers.issue(ownerId, ['timeline']);
    expect((await rpc.call<{ entries: { id: string }[] }>('rpc.timeline.list', {}, timelineOnly.token)).entries.map((e) => e.id)).toEqual([recordingId]);
    await expect(rpc.call('rpc.timeline.entry', { id: letterId }, timelineOnly.token)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    // Without the timeline scope, or with it for another vault, nothing of this vault.
    await expect(rpc.call('rpc.timeline.list', {}, viewers.issue(ownerId, ['letters']).token)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    const stranger = await rpc.call<{ entries: { id: string }[] }>('rpc.timeline.list', {}, viewers.issue(anotherOwnerId, ['timeline']).token);
    expect(stranger.entries.map((e) => e.id)).not.toEqual(expect.arrayContaining([letterId]));
  });
});
