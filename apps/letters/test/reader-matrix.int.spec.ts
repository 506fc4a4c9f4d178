import { randomBytes, randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import { AccessMessages, VIEW_SECTIONS } from '@lv/contracts';
import type { ViewerCaller } from '@lv/platform/auth';
import { answerTable, readerMatrixTests, runReaderMatrix, startMatrixService, type MatrixService, type ReaderMatrixResult } from '@lv/testing';

// Every letters handler against every kind of caller (libs/testing runReaderMatrix), compared with the
// table below: what each caller must get, written by hand and not from the handlers' declarations.

jest.setTimeout(120_000);

const ANSWERS = answerTable(`
subject                            anonymous owner   other-owner admin     operator | timeline letters court-journal who-i-am if-im-not-there all-sections | other-vault expired revoked
# Owners' own reads and writes; a write refused for its empty payload (invalid) got past the guard.
rpc.letters.stats                  unauth    ok      ok          ok        forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.letters.list                   unauth    ok      ok          ok        forbid   | forbid   ok      forbid        forbid   forbid          ok           | ok          expired expired
# One owner's letter is not found for another owner, an admin or another vault's viewer.
rpc.letters.get                    unauth    ok      NOT_FOUND   NOT_FOUND forbid   | forbid   ok      forbid        forbid   forbid          ok           | NOT_FOUND   expired expired
rpc.letters.write                  unauth    invalid invalid     invalid   forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.letters.revise                 unauth    invalid invalid     invalid   forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.letters.delete                 unauth    invalid invalid     invalid   forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.letters.reflection.get         unauth    ok      ok          ok        forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.letters.reflection.save        unauth    invalid invalid     invalid   forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
# Who I Am: the portrait, for owners and viewers of who-i-am.
rpc.letters.portrait.get           unauth    ok      ok          ok        forbid   | forbid   forbid  forbid        ok       forbid          ok           | ok          expired expired
rpc.letters.portrait.save          unauth    ok      ok          ok        forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.letters.portrait.sections      unauth    ok      ok          ok        forbid   | forbid   forbid  forbid        ok       forbid          ok           | ok          expired expired
rpc.letters.op.rebuild-projections unauth    forbid  forbid      forbid    ok       | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.letters.op.replay-erasures     unauth    forbid  forbid      forbid    ok       | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
# The timeline's titles: viewers of the timeline (the letters' own section is checked by the service).
rpc.letters.titles                 unauth    ok      ok          ok        forbid   | ok       forbid  forbid        forbid   forbid          ok           | ok          expired expired
rpc.letters.seal                   unauth    ok      NOT_FOUND   NOT_FOUND forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.letters.unseal                 unauth    ok      NOT_FOUND   NOT_FOUND forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
# access-keys' question about a release (deploy/nats lets no one else ask): public, it answers a state, never words.
rpc.letters.milestone-release      ok        ok      ok          ok        ok       | ok       ok      ok            ok       ok              ok           | ok          ok      ok
rpc.letters.op.milestones-due      unauth    forbid  forbid      forbid    ok       | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
# The community is for paying members (the matrix's owners are on none); an admin reads it whatever the plan.
rpc.letters.community.posts        unauth    UPGRADE_REQUIRED UPGRADE_REQUIRED ok        forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.letters.community.publish      unauth    invalid invalid     invalid   forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.letters.community.like         unauth    invalid invalid     invalid   forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.letters.community.delete       unauth    invalid invalid     invalid   forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.letters.community.submit-story unauth    invalid invalid     invalid   forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
# Stories waiting for moderation: admins only, by the token's claim.
rpc.letters.community.stories      unauth    forbid  forbid      ok        forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
# Health answers everyone: it names no one's data.
rpc.letters.health                 ok        ok      ok          ok        ok       | ok       ok      ok            ok       ok              ok           | ok          ok      ok
`);

const secret = (label: string) => `${label}${randomBytes(6).toString('hex')}`;

describe('letters reader matrix', () => {
  let service: MatrixService;
  let result: ReaderMatrixResult;
  // The owner's words, which only the owner and a viewer of this vault with 'letters' may see.
  const ownerTitle = secret('ownertitle');
  const ownerThought = secret('ownerthought');
  const ownerPortrait = secret('ownerportrait');
  const ownerStory = secret('ownerstory');
  const portrait = { about_me: ownerPortrait, personality_traits: ['Kind'], favorite_music: '', favorite_films: '', core_values: ['honesty'] };
  let ownerLetter: { id: string };
  let sealedLetter: { id: string };

  beforeAll(async () => {
    service = await startMatrixService({ label: 'lettersmx', definition: async () => (await import('../src/letters.definition.js')).lettersService });
    const { rpc, ownerId, anotherOwnerId } = service.callers;
    const tokenOf = (userId: string) => service.callers.tokenOf(userId);
    ownerLetter = await rpc.call<{ id: string }>('rpc.letters.write', { id: randomUUID(), title: ownerTitle, content: 'words for my children' }, tokenOf(ownerId));
    await rpc.call('rpc.letters.reflection.save', { text: ownerThought }, tokenOf(ownerId));
    await rpc.call('rpc.letters.portrait.save', portrait, tokenOf(ownerId));
    // A story kept for moderation: no member reads it back, not even its author (admins do, in the service).
    await rpc.call('rpc.letters.community.submit-story', { id: randomUUID(), story: ownerStory, author_name: null }, service.callers.tokenOf(ownerId, { tier: 'pro' }));
    // A letter sealed until a day for one recipient: no key holder reads it before its release.
    sealedLetter = await rpc.call<{ id: string }>('rpc.letters.write', { id: randomUUID(), title: secret('sealedtitle'), content: 'for your 18th birthday' }, tokenOf(ownerId));
    const sealPayload = { id: sealedLetter.id, until: new Date(Date.now() + 400 * 24 * 3600 * 1000).toISOString().slice(0, 10), time_zone: 'UTC', recipient_name: 'Ellie', recipient_email: 'ellie@example.com' };
    await rpc.call('rpc.letters.seal', sealPayload, tokenOf(ownerId));
    // The other owner has a vault of their own, so an empty reply is not what keeps them out.
    await rpc.call('rpc.letters.write', { id: randomUUID(), title: secret('othertitle'), content: 'someone else' }, tokenOf(anotherOwnerId));

    result = await runReaderMatrix(service, {
      answers: ANSWERS,
      payloads: {
        'rpc.letters.get': { id: ownerLetter.id }, 'rpc.letters.portrait.save': { ...portrait, about_me: 'words of whoever saves' },
        'rpc.letters.seal': sealPayload, 'rpc.letters.unseal': { id: ownerLetter.id },
        'rpc.letters.milestone-release': { letter_id: sealedLetter.id, release_id: randomUUID() },
        'rpc.letters.titles': { ids: [ownerLetter.id] },
      },
      ownerSecrets: [ownerTitle, ownerThought, ownerPortrait, ownerStory],
      // Not portrait.get: the matrix's own save (as the owner, in no fixed order) replaces the secret portrait.
      ownerReads: ['rpc.letters.list', 'rpc.letters.get', 'rpc.letters.reflection.get', 'rpc.letters.titles'],
    });
  });

  afterAll(async () => {
    await service?.close();
  });

  readerMatrixTests(() => result);

  it('shows a viewer of Letters the owner’s letters and lets him change nothing; a sealed letter reaches no key holder before its release', async () => {
    const { rpc, viewers, ownerId } = service.callers;
    // The viewer's reads really are the owner's letters (scoped by vaultOwnerId, not by a user id).
    const viewer = viewers.issue(ownerId, ['letters']);
    const page = await rpc.call<{ letters: { id: string; title: string }[] }>('rpc.letters.list', {}, viewer.token);
    expect(page.letters.map((l) => l.title)).toEqual([ownerTitle]);
    await expect(rpc.call('rpc.letters.write', { id: randomUUID(), title: 'x', content: 'y' }, viewer.token)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(rpc.call('rpc.letters.reflection.get', {}, viewer.token)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    // The sealed letter: in its owner's list with its seal, in no key holder's (not even one limited to it, before its release).
    const ownerPage = await rpc.call<{ letters: { id: string; milestone: { status: string } | null }[] }>('rpc.letters.list', {}, service.callers.tokenOf(ownerId));
    expect(ownerPage.letters.find((l) => l.id === sealedLetter.id)?.milestone?.status).toBe('sealed');
    await expect(rpc.call('rpc.letters.get', { id: sealedLetter.id }, viewer.token)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const limited = viewers.issue(ownerId, ['letters'], undefined, sealedLetter.id);
    expect((await rpc.call<{ letters: unknown[] }>('rpc.letters.list', {}, limited.token)).letters).toEqual([]);
    await expect(rpc.call('rpc.letters.get', { id: sealedLetter.id }, limited.token)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    // The timeline's titles: a key of the timeline and Letters sees the letters' titles there; a key of the timeline alone, none.
    const timelineAndLetters = viewers.issue(ownerId, ['timeline', 'letters']);
    expect(await rpc.call('rpc.letters.titles', { ids: [sealedLetter.id, ownerLetter.id] }, timelineAndLetters.token)).toEqual({ titles: { [ownerLetter.id]: ownerTitle } });
    const timelineViewer = viewers.issue(ownerId, ['timeline']);
    expect(await rpc.call('rpc.letters.titles', { ids: [sealedLetter.id, ownerLetter.id] }, timelineViewer.token)).toEqual({ titles: {} });
    // access-keys' question answers nothing for a release that has not happened.
    expect(await rpc.call('rpc.letters.milestone-release', { letter_id: sealedLetter.id, release_id: randomUUID() })).toEqual({ state: 'unknown' });
  });

  it('refuses a viewer whose key opens every section but Letters, with none of the letter in the refusal, even behind a wrong declaration', async () => {
    const { rpc, viewers, ownerId } = service.callers;
    const withoutLetters = viewers.issue(ownerId, VIEW_SECTIONS.filter((section) => section !== 'letters'));
    const refusals = await Promise.all([
      rpc.call('rpc.letters.list', {}, withoutLetters.token).then(() => 'answered', (error: unknown) => error),
      rpc.call('rpc.letters.get', { id: ownerLetter.id }, withoutLetters.token).then(() => 'answered', (error: unknown) => error),
    ]);
    expect(refusals).toEqual([expect.objectContaining({ code: 'FORBIDDEN' }), expect.objectContaining({ code: 'FORBIDDEN' })]);
    for (const words of [ownerTitle, 'words for my children', ownerLetter.id]) expect(JSON.stringify(refusals)).not.toContain(words);
    expect(await rpc.call('rpc.letters.titles', { ids: [ownerLetter.id] }, withoutLetters.token)).toEqual({ titles: {} });
    // The service's own check, behind the handlers' declarations: a declaration written wrongly would still show him nothing.
    const { LettersService } = await import('../src/letters.service.js');
    const letters = service.app.get(LettersService);
    const caller: ViewerCaller = { kind: 'viewer', vaultOwnerId: ownerId, viewSessionId: randomUUID(), scopes: ['timeline'], expiresAt: Date.now() + 60_000, mayDownload: false };
    const notShared = { code: 'FORBIDDEN', message: AccessMessages.sectionNotShared };
    await expect(letters.list(caller, {})).rejects.toMatchObject(notShared);
    await expect(letters.get(caller, ownerLetter.id)).rejects.toMatchObject(notShared);
    expect(await letters.titles(caller, [ownerLetter.id])).toEqual({ titles: {} });
  });

  it('shows a key holder of who-i-am which sections of the portrait are filled and its words; one without that section nothing of it', async () => {
    const { rpc, viewers, ownerId, anotherOwnerId } = service.callers;
    await rpc.call('rpc.letters.portrait.save', portrait, service.callers.tokenOf(ownerId));
    expect((await rpc.call<{ about_me: string }>('rpc.letters.portrait.get', {}, service.callers.tokenOf(ownerId))).about_me).toBe(ownerPortrait);
    expect((await rpc.call<{ about_me: string }>('rpc.letters.portrait.get', {}, service.callers.tokenOf(anotherOwnerId))).about_me).not.toBe(ownerPortrait);
    const portraitViewer = viewers.issue(ownerId, ['who-i-am']);
    const sections = await rpc.call<{ section: string }[]>('rpc.letters.portrait.sections', {}, portraitViewer.token);
    expect(sections.map((s) => s.section)).toEqual(['About Me', 'Personality Traits', 'Core Values']);
    expect(JSON.stringify(sections)).not.toContain(ownerPortrait);
    expect((await rpc.call<{ about_me: string }>('rpc.letters.portrait.get', {}, portraitViewer.token)).about_me).toBe(ownerPortrait);
    const lettersViewer = viewers.issue(ownerId, ['letters']);
    await expect(rpc.call('rpc.letters.portrait.get', {}, lettersViewer.token)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(rpc.call('rpc.letters.portrait.sections', {}, lettersViewer.token)).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });
});
