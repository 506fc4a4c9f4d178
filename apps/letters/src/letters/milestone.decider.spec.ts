import fc from 'fast-check';
import { MilestoneMessages, startOfDayIn } from '@lv/contracts';
import type { DomainError } from '@lv/platform/errors';
import { foldEvents } from '@lv/platform/event-store';
import { deciderSpecification, propertySeeds } from '@lv/testing';
import { isMilestoneDue, letterDecider, type LetterCommand, type LetterEvent, type LetterState } from './letter.decider.js';

const spec = deciderSpecification(letterDecider);
const letterId = '0d5f6b3e-4a51-4c7e-9c39-2b7f8d1e6a10';
const owner = '6f1c9a52-3a8e-4d52-9a55-0f7f3b1f8c11';
const stranger = '9b2e4c71-1d3f-4e8a-b5c6-7a8b9c0d1e2f';
const release1 = 'a1b2c3d4-0000-4000-8000-000000000001';
const release2 = 'a1b2c3d4-0000-4000-8000-000000000002';
const t0 = '2026-11-26T10:00:00.000Z';
const HOUR = 3600 * 1000;

const written: LetterEvent = { type: 'LetterWritten', data: { letterId, ownerId: owner, title: 'For Ellie at 18', content: 'Happy birthday, my girl.', wordCount: 4, writtenAt: t0 } };
const seal = (over: Partial<Extract<LetterCommand, { type: 'SealLetter' }>> = {}): LetterCommand => ({
  type: 'SealLetter', letterId, ownerId: owner, releaseId: release1, until: '2034-05-14', timeZone: 'Europe/London', recipientName: 'Ellie', recipientEmail: 'ellie@example.com',
  sharedBy: 'dad@example.com', now: t0, ...over,
});
// Midnight in London on 14 May 2034 is 23:00 UTC the day before (summer time).
const DUE = '2034-05-13T23:00:00.000Z';
const sealed = (releaseId = release1, until = '2034-05-14', dueAt = DUE): LetterEvent => ({
  type: 'LetterSealed',
  data: { letterId, ownerId: owner, releaseId, until, timeZone: 'Europe/London', dueAt, sealedAt: t0, recipientName: 'Ellie', recipientEmail: 'ellie@example.com', sharedBy: 'dad@example.com' },
});
const releaseAt = (now: string, releaseId = release1): LetterCommand => ({ type: 'ReleaseLetter', letterId, releaseId, now });
const releasedEvent = (now: string): LetterEvent => ({ type: 'LetterReleased', data: { letterId, ownerId: owner, releaseId: release1, dueAt: DUE, releasedAt: now } });
const deleted: LetterEvent = { type: 'LetterDeleted', data: { letterId, ownerId: owner, deletedAt: t0 } };
const unsealed: LetterEvent = { type: 'LetterUnsealed', data: { letterId, ownerId: owner, releaseId: release1, unsealedAt: t0 } };

describe('letters for a milestone: the day and its time zone', () => {
  it('opens at the first instant of the day where the owner lives, summer time included', () => {
    expect(startOfDayIn('2034-05-14', 'Europe/London')).toBe(DUE);
    expect(startOfDayIn('2034-01-14', 'Europe/London')).toBe('2034-01-14T00:00:00.000Z');
    expect(startOfDayIn('2034-05-14', 'UTC')).toBe('2034-05-14T00:00:00.000Z');
    expect(startOfDayIn('2034-05-14', 'America/Los_Angeles')).toBe('2034-05-14T07:00:00.000Z');
    expect(startOfDayIn('2034-05-14', 'Pacific/Kiritimati')).toBe('2034-05-13T10:00:00.000Z');
    // Midnight does not exist on the day Cuba's clocks go forward (00:00 → 01:00): the day opens at 01:00 local time.
    expect(startOfDayIn('2026-03-08', 'America/Havana')).toBe('2026-03-08T05:00:00.000Z');
  });
});

describe('letters for a milestone: the decider', () => {
  it('seals an owner’s letter until a later day for one recipient; the same seal again changes nothing', () => {
    spec.given([written]).when(seal()).then([sealed()]);
    spec.given([written, sealed()]).when(seal({ releaseId: release2 })).then([]);
    // A new day or recipient replaces the seal under a new release id: the old job finds nothing.
    spec.given([written, sealed()]).when(seal({ releaseId: release2, until: '2035-05-14' })).then([sealed(release2, '2035-05-14', '2035-05-13T23:00:00.000Z')]);
    spec.given([written, sealed(), { ...sealed(release2, '2035-05-14', '2035-05-13T23:00:00.000Z') }]).when(releaseAt('2040-01-01T00:00:00.000Z')).then([]);
  });

  it('refuses a day that is not after today where the owner is, a bad zone, a missing recipient; a stranger’s letter is not found', () => {
    const codeOf = (command: LetterCommand) => {
      try {
        letterDecider.decide(command, foldEvents(letterDecider, [written]));
        return 'OK';
      } catch (error) {
        return `${(error as DomainError).code}: ${(error as DomainError).message}`;
      }
    };
    expect(codeOf(seal({ until: '2026-11-26' }))).toBe(`VALIDATION_FAILED: ${MilestoneMessages.untilInFuture}`);
    // 10:00 UTC on 26 November is already the 27th in Kiritimati (UTC+14): the 27th is today there.
    expect(codeOf(seal({ until: '2026-11-27', timeZone: 'Pacific/Kiritimati' }))).toBe(`VALIDATION_FAILED: ${MilestoneMessages.untilInFuture}`);
    expect(codeOf(seal({ until: '2026-11-27', timeZone: 'UTC' }))).toBe('OK');
    expect(codeOf(seal({ until: '2027-02-30' }))).toBe(`VALIDATION_FAILED: ${MilestoneMessages.untilRequired}`);
    expect(codeOf(seal({ until: '2127-11-27' }))).toBe(`VALIDATION_FAILED: ${MilestoneMessages.untilTooFar}`);
    expect(codeOf(seal({ timeZone: 'Mars/Olympus' }))).toBe(`VALIDATION_FAILED: ${MilestoneMessages.timeZone}`);
    expect(codeOf(seal({ recipientName: '  ' }))).toBe(`VALIDATION_FAILED: ${MilestoneMessages.nameRequired}`);
    expect(codeOf(seal({ recipientEmail: 'ellie' }))).toBe(`VALIDATION_FAILED: ${MilestoneMessages.emailInvalid}`);
    expect(codeOf(seal({ ownerId: stranger }))).toMatch(/^NOT_FOUND/);
    spec.given([]).when(seal()).thenThrows('NOT_FOUND');
    spec.given([written, deleted]).when(seal()).thenThrows('NOT_FOUND');
  });

  it('releases on the day, never a millisecond early, exactly once; a released letter’s seal cannot change', () => {
    spec.given([written, sealed()]).when(releaseAt(new Date(Date.parse(DUE) - 1).toISOString())).thenThrows('CONFLICT');
    spec.given([written, sealed()]).when(releaseAt(DUE)).then([releasedEvent(DUE)]);
    const history = [written, sealed(), releasedEvent(DUE)];
    spec.given(history).when(releaseAt('2034-06-01T00:00:00.000Z')).then([]);
    spec.given(history).when({ type: 'UnsealLetter', letterId, ownerId: owner, now: DUE }).thenThrows('CONFLICT');
    spec.given(history).when(seal({ releaseId: release2, until: '2040-01-01', now: DUE })).thenThrows('CONFLICT');
    spec.given(history).when({ type: 'RecordLetterKey', letterId, releaseId: release1, keyId: release1, now: DUE })
      .then([{ type: 'LetterKeyIssued', data: { letterId, ownerId: owner, releaseId: release1, keyId: release1, issuedAt: DUE } }]);
  });

  it('never releases a letter unsealed or deleted before its day', () => {
    spec.given([written, sealed()]).when({ type: 'UnsealLetter', letterId, ownerId: owner, now: t0 }).then([unsealed]);
    spec.given([written, sealed(), unsealed]).when(releaseAt(DUE)).then([]);
    spec.given([written, sealed(), deleted]).when(releaseAt(DUE)).then([]);
    spec.given([written, sealed(), deleted]).when({ type: 'RecordLetterKey', letterId, releaseId: release1, keyId: release1, now: DUE }).then([]);
  });
});

/**
 * Histories with a fake clock: the owner seals, re-seals, unseals, deletes and revises at random
 * times while due jobs (some duplicated, some early, some of older seals) fire at random times.
 * Whatever the order: no release before the seal's day, at most one release per seal and never one
 * after the seal was removed or replaced or the letter deleted.
 */
describe('letters for a milestone: fake-clock property', () => {
  const seeds = propertySeeds('milestone.decider.spec');
  const step = fc.oneof(
    fc.record({ kind: fc.constant('seal' as const), days: fc.integer({ min: 1, max: 40 }), at: fc.integer({ min: 0, max: 60 * 24 }) }),
    fc.record({ kind: fc.constant('unseal' as const), at: fc.integer({ min: 0, max: 60 * 24 }) }),
    fc.record({ kind: fc.constant('delete' as const), at: fc.integer({ min: 0, max: 60 * 24 }) }),
    fc.record({ kind: fc.constant('job' as const), seal: fc.integer({ min: 0, max: 5 }), at: fc.integer({ min: 0, max: 60 * 24 }) }),
  );

  it.each(seeds.all)('0 early releases, 0 duplicates, 0 releases after a removed seal or a deleted letter (2,000 histories, seed %i)', (seed) => {
    fc.assert(fc.property(fc.array(step, { minLength: 1, maxLength: 40 }), (steps) => {
      // Time only moves forward: each step happens `at` hours after the previous one.
      let clock = Date.parse(t0);
      let state: LetterState = foldEvents(letterDecider, [written]);
      const seals: string[] = [];
      const releasedSeals = new Set<string>();
      const apply = (events: LetterEvent[]) => {
        for (const event of events) state = letterDecider.evolve(state, event);
        return events;
      };
      const tryDecide = (command: LetterCommand) => {
        try {
          return apply(letterDecider.decide(command, state));
        } catch {
          return [];
        }
      };
      for (const s of steps) {
        clock += s.at * HOUR;
        const now = new Date(clock).toISOString();
        if (s.kind === 'seal') {
          const releaseId = `a1b2c3d4-0000-4000-8000-${String(seals.length).padStart(12, '0')}`;
          const until = new Date(clock + s.days * 24 * HOUR).toISOString().slice(0, 10);
          const events = tryDecide(seal({ releaseId, until, timeZone: 'UTC', now, recipientName: `Ellie ${seals.length}` }));
          if (events.length) seals.push(releaseId);
        } else if (s.kind === 'unseal') {
          tryDecide({ type: 'UnsealLetter', letterId, ownerId: owner, now });
        } else if (s.kind === 'delete') {
          tryDecide({ type: 'DeleteLetter', letterId, ownerId: owner, now });
        } else {
          const releaseId = seals[s.seal] ?? release2;
          const before = state;
          const events = tryDecide(releaseAt(now, releaseId));
          for (const event of events) {
            if (event.type !== 'LetterReleased') continue;
            // Never early, only the current seal, only a live letter, once.
            expect(clock).toBeGreaterThanOrEqual(Date.parse(before.milestone!.dueAt));
            expect(isMilestoneDue(before, now)).toBe(true);
            expect(before.status).toBe('written');
            expect(before.milestone!.releaseId).toBe(releaseId);
            expect(releasedSeals.has(releaseId)).toBe(false);
            releasedSeals.add(releaseId);
          }
        }
      }
      // At most one seal is ever released: once released a letter keeps its seal.
      expect(releasedSeals.size).toBeLessThanOrEqual(1);
    }), { numRuns: 2000, seed });
  });
});
