import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import {
  isUuid, LETTERS_PAGE_DEFAULT, LETTERS_PAGE_MAX, LetterMessages, MilestoneMessages, type DeleteLetterReply, type Letter, type LetterPage, type Reflection, type RequestMeta,
  type VaultStatsContribution,
  type LetterMilestone, type MilestoneReleaseJob, type MilestoneReleaseReply, type MilestonesDueReply, type SealLetterPayload, type Portrait, type PortraitSections, type SavePortraitPayload, type TitlesReply,
} from '@lv/contracts';
import { ownerOf, readsSection, requireSection, vaultOwnerId, type Caller } from '@lv/platform/auth';
import { DomainError, validationError } from '@lv/platform/errors';
import { aggregateStream, EventStore, handleCommand, PerStreamSealing, rebuildProjections, type ErasureHandler, type EventMetadata, type RebuildReport } from '@lv/platform/event-store';
import { LetterKeys } from './letters/letter-keys.js';
import { letterSealing } from './letters/letter-sealing.js';
import { lettersPublishPolicy } from './letters/publish-policy.js';
import { LETTER_STREAM_TYPE, letterDecider, letterIdOfStream, letterStreamId, type LetterCommand } from './letters/letter.decider.js';
import { findLetter, findLetterPage, letterActivityProjection, letterStats, lettersProjection, type LetterVisibility, findLetterTitles } from './letters/letters.projection.js';
import { MilestonesService } from './letters/milestones.service.js';
import { findMilestones, milestonesProjection } from './letters/milestones.projection.js';
import { pageCursor } from '@lv/platform/paging';
import type { TypedQueue } from '@lv/platform/queues';
import { ReflectionKeys, reflectionSealing } from './reflection/reflection-sealing.js';
import { ownerIdOfReflectionStream, REFLECTION_STREAM_TYPE, reflectionDecider, reflectionStreamId } from './reflection/reflection.decider.js';
import { findReflection, reflectionsProjection, reflectionStats } from './reflection/reflection.projection.js';
import { PortraitKeys, portraitSealing } from './portrait/portrait-sealing.js';
import { ownerIdOfPortraitStream, PORTRAIT_STREAM_TYPE, portraitDecider, portraitStreamId } from './portrait/portrait.decider.js';
import { streamErasure, type StreamErasure } from './account/stream-erasure.js';
import { findPortrait, findPortraitSections, portraitsProjection } from './portrait/portrait.projection.js';

export interface LettersServiceDeps {
  orm: MikroORM;
  /** Letters sealed until a day: their release jobs' queue, and access-keys' key issuing for a committed release. */
  milestones?: { jobs: TypedQueue<MilestoneReleaseJob>; issueKey: (letterId: string, releaseId: string) => Promise<string | null>; now?: () => Date };
}

/** What a caller may see of a vault's letters (letters.projection.ts: LetterVisibility). */
function visibilityOf(caller: Caller): LetterVisibility {
  if (caller.kind !== 'viewer') return { kind: 'all' };
  return caller.letterId ? { kind: 'released', letterId: caller.letterId } : { kind: 'unsealed' };
}


/** A malformed id names no letter: not found, like any id that is not the caller's. */
function letterId(id: string): string {
  if (!isUuid(id)) throw new DomainError('NOT_FOUND', LetterMessages.notFound);
  return id.toLowerCase();
}

/**
 * Letters' use cases. Transport-free: the NATS controller and the tests call these directly. Every
 * method takes the verified Caller; whose letters are read or changed is decided from it alone.
 */
export class LettersService {
  /** Letters, reflections and portraits, each stream's words sealed under its own key. */
  readonly sealing = new PerStreamSealing([letterSealing(new LetterKeys()), reflectionSealing(new ReflectionKeys()), portraitSealing(new PortraitKeys())]);

  readonly store = new EventStore({
    publish: lettersPublishPolicy,
    inlineProjections: [lettersProjection, letterActivityProjection, reflectionsProjection, portraitsProjection, milestonesProjection],
    sealing: this.sealing,
  });

  /** A reflection and a portrait have no deletion of their own: an erased account destroys their keys and rows. */
  private readonly reflectionErasure: StreamErasure;
  private readonly portraitErasure: StreamErasure;

  /** How the erasure journal's replay deletes a letter (a reflection, a portrait) again that a restore brought back. */
  readonly erasureHandlers: ErasureHandler[];

  /** Sealed letters' releases; absent where no queue is given (then sealing is refused). */
  readonly milestones: MilestonesService | null;

  constructor(private readonly deps: LettersServiceDeps) {
    this.milestones = deps.milestones ? new MilestonesService({ orm: deps.orm, store: this.store, ...deps.milestones }) : null;
    this.reflectionErasure = streamErasure({
      orm: deps.orm, sealing: this.sealing, streamType: REFLECTION_STREAM_TYPE, readModel: { table: 'reflections', idColumn: 'user_id', idOf: ownerIdOfReflectionStream },
    });
    this.portraitErasure = streamErasure({
      orm: deps.orm, sealing: this.sealing, streamType: PORTRAIT_STREAM_TYPE, readModel: { table: 'portraits', idColumn: 'user_id', idOf: ownerIdOfPortraitStream },
    });
    this.erasureHandlers = [
      { streamType: LETTER_STREAM_TYPE, eraseAgain: (streamId) => this.deleteLetterOfStream(streamId, 'erasure-journal') },
      this.reflectionErasure.handler, this.portraitErasure.handler,
    ];
  }

  /**
   * The owner's account is erased (identity's AccountErased): every letter of his deleted as he would
   * delete it (LetterDeleted: key destroyed and journaled, read-model rows and seals gone, the deletion
   * published), his reflection's and portrait's keys destroyed and journaled and their rows deleted.
   * Only what is still alive is erased, so a second delivery erases nothing.
   */
  async eraseOwner(ownerId: string): Promise<{ letters: number; reflection: boolean; portrait: boolean }> {
    const em = this.em;
    const letters = await em.execute<{ id: string }[]>('select id::text from letters where owner_id = ? order by id', [ownerId]);
    let deleted = 0;
    for (const { id } of letters) if (await this.deleteLetterOfStream(letterStreamId(id), 'account-erasure')) deleted++;
    const hasKey = async (table: string) => (await em.execute<unknown[]>(`select 1 from ${table} where owner_id = ?`, [ownerId])).length > 0;
    const reflection = await hasKey('reflection_keys');
    if (reflection) await this.reflectionErasure.erase(reflectionStreamId(ownerId));
    const portrait = await hasKey('portrait_keys');
    if (portrait) await this.portraitErasure.erase(portraitStreamId(ownerId));
    return { letters: deleted, reflection, portrait };
  }

  get orm(): MikroORM {
    return this.deps.orm;
  }

  private get em() {
    return this.deps.orm.em.fork();
  }

  async list(caller: Caller, query: { limit?: number; cursor?: string }): Promise<LetterPage> {
    // The service's own check behind @Readers: a viewer reads letters only with a key that opens them.
    requireSection(caller, 'letters');
    const limit = Math.min(Math.max(1, query.limit ?? LETTERS_PAGE_DEFAULT), LETTERS_PAGE_MAX);
    const after = query.cursor ? pageCursor.decode(query.cursor) : null;
    if (query.cursor && !after) throw validationError({ cursor: 'This list position is not valid. Reload the list.' });
    // One more than asked tells whether another page follows.
    const em = this.em;
    const rows = await findLetterPage(em, { ownerId: vaultOwnerId(caller), visibility: visibilityOf(caller), limit: limit + 1, after });
    const letters = await this.withMilestones(em, caller, rows.slice(0, limit));
    const last = letters.at(-1);
    return { letters, nextCursor: rows.length > limit && last ? pageCursor.encode({ timestamp: last.created_at, id: last.id }) : null };
  }

  async get(caller: Caller, id: string): Promise<Letter> {
    requireSection(caller, 'letters');
    const em = this.em;
    const letter = await findLetter(em, vaultOwnerId(caller), letterId(id), visibilityOf(caller));
    if (!letter) throw new DomainError('NOT_FOUND', LetterMessages.notFound);
    return (await this.withMilestones(em, caller, [letter]))[0]!;
  }

  /** The owner sees each letter's seal ("Sealed until … for …"); a viewer's reply has none. */
  private async withMilestones<T extends { id: string }>(em: EntityManager, caller: Caller, letters: T[]): Promise<(T & { milestone: LetterMilestone | null })[]> {
    if (caller.kind !== 'user') return letters.map((letter) => ({ ...letter, milestone: null }));
    const milestones = await findMilestones(em, caller.userId, letters.map((l) => l.id));
    return letters.map((letter) => ({ ...letter, milestone: milestones.get(letter.id) ?? null }));
  }

  /**
   * Seals a letter until a day (in the owner's time zone) for one recipient, replacing any earlier
   * seal; from then on no key holder reads it until its release, and only its recipient after.
   */
  async seal(caller: Caller, input: SealLetterPayload, meta?: RequestMeta): Promise<Letter> {
    const owner = ownerOf(caller);
    // On its day a sealed letter is e-mailed to a recipient the owner typed, in his name: an account
    // whose address nobody has proved could use that to mail strangers, so it verifies first (as it
    // does before inviting trustees). Removing a seal is always allowed.
    if (!owner.emailVerified) throw new DomainError('EMAIL_NOT_VERIFIED', MilestoneMessages.verifyEmailFirst);
    const id = letterId(input.id);
    const milestones = this.requireMilestones();
    await milestones.seal({
      type: 'SealLetter', letterId: id, ownerId: owner.userId, releaseId: milestones.newReleaseId(), until: input.until, timeZone: input.time_zone,
      recipientName: input.recipient_name, recipientEmail: input.recipient_email, sharedBy: owner.email, now: new Date().toISOString(),
    }, this.metadata(caller, meta));
    return this.get(caller, id);
  }

  /** Removes the seal before its day: the letter is an ordinary one again and its release job finds nothing. */
  async unseal(caller: Caller, rawId: string, meta?: RequestMeta): Promise<Letter> {
    const id = letterId(rawId);
    await this.requireMilestones().seal({ type: 'UnsealLetter', letterId: id, ownerId: ownerOf(caller).userId, now: new Date().toISOString() }, this.metadata(caller, meta));
    return this.get(caller, id);
  }

  /** access-keys' question before it issues a milestone key. */
  milestoneRelease(letterIdValue: string, releaseId: string): Promise<MilestoneReleaseReply> {
    return this.requireMilestones().releaseOf(letterIdValue.toLowerCase(), releaseId.toLowerCase());
  }

  /** The operator's due check: releases only what is due now. */
  milestonesDue(): Promise<MilestonesDueReply> {
    return this.requireMilestones().releaseDue();
  }

  private requireMilestones(): MilestonesService {
    if (!this.milestones) throw new DomainError('SERVICE_UNAVAILABLE');
    return this.milestones;
  }

  private metadata(caller: Caller, meta?: RequestMeta): EventMetadata {
    return { actor: { kind: 'user', id: ownerOf(caller).userId }, ...(meta?.requestId ? { correlationId: meta.requestId } : {}) };
  }

  /**
   * Saves a new letter under the id the client chose. Sending the same letter again (a retry after a
   * lost answer, or a process killed after its commit) returns the letter saved the first time and
   * records nothing new; the id with other words, or another owner's, is a CONFLICT.
   */
  async write(caller: Caller, input: { id: string; title: string; content: string }, meta?: RequestMeta): Promise<Letter> {
    const id = letterId(input.id);
    await this.execute(id, { type: 'WriteLetter', letterId: id, ownerId: ownerOf(caller).userId, title: input.title, content: input.content, now: new Date().toISOString() }, caller, meta);
    return this.get(caller, id);
  }

  /** `expectedVersion` is the version the editor showed; if the letter changed since, CONFLICT and nothing is overwritten. */
  async revise(caller: Caller, input: { id: string; title: string; content: string; expectedVersion: number }, meta?: RequestMeta): Promise<Letter> {
    const id = letterId(input.id);
    await this.execute(id, {
      type: 'ReviseLetter', letterId: id, ownerId: ownerOf(caller).userId, title: input.title, content: input.content, expectedVersion: input.expectedVersion, now: new Date().toISOString(),
    }, caller, meta);
    return this.get(caller, id);
  }

  async delete(caller: Caller, rawId: string, meta?: RequestMeta): Promise<DeleteLetterReply> {
    const id = letterId(rawId);
    await this.execute(id, { type: 'DeleteLetter', letterId: id, ownerId: ownerOf(caller).userId, now: new Date().toISOString() }, caller, meta);
    return { id, deleted: true };
  }

  /**
   * The vault home's "Letters Written" (live letters, not court documents), "Thoughts Saved" (the
   * reflection, 0 or 1) and the days letters were written or revised and the reflection was saved.
   */
  async stats(caller: Caller): Promise<VaultStatsContribution> {
    const em = this.em;
    const [letters, reflection] = [await letterStats(em, ownerOf(caller).userId), await reflectionStats(em, ownerOf(caller).userId)];
    return {
      lettersWritten: letters.lettersWritten,
      thoughtsSaved: reflection.thoughtsSaved,
      activeDays: [...new Set([...letters.activeDays, ...reflection.activeDays])].sort(),
    };
  }

  /** The caller's own reflection (vault home, "Thoughts & Feelings"); '' and null when none is saved. */
  reflection(caller: Caller): Promise<Reflection> {
    return findReflection(this.em, ownerOf(caller).userId);
  }

  /**
   * Saves the caller's reflection, trimmed (at most REFLECTION_MAX characters); a blank text clears
   * it. The stream is named after the verified caller: nobody can reach another user's reflection.
   * Concurrent saves are settled by re-deciding: the last one wins.
   */
  async saveReflection(caller: Caller, input: { text: string }, meta?: RequestMeta): Promise<Reflection> {
    const metadata: EventMetadata = { actor: { kind: 'user', id: ownerOf(caller).userId }, ...(meta?.requestId ? { correlationId: meta.requestId } : {}) };
    await handleCommand(this.deps.orm.em, this.store, reflectionDecider, { type: 'SaveReflection', ownerId: ownerOf(caller).userId, text: input.text, now: new Date().toISOString() }, {
      streamId: reflectionStreamId(ownerOf(caller).userId), streamType: REFLECTION_STREAM_TYPE, metadata,
    });
    return this.reflection(caller);
  }

  /** The caller's own Who I Am portrait; every field empty and `updated_at` null when none is saved. */
  portrait(caller: Caller): Promise<Portrait> {
    return findPortrait(this.em, vaultOwnerId(caller));
  }

  /**
   * Saves the caller's whole portrait (Save Profile), normalised by the decider: texts trimmed, empty
   * core values dropped. The stream is named after the verified caller; the last save wins.
   */
  async savePortrait(caller: Caller, input: SavePortraitPayload, meta?: RequestMeta): Promise<Portrait> {
    const ownerId = ownerOf(caller).userId;
    const metadata: EventMetadata = { actor: { kind: 'user', id: ownerId }, ...(meta?.requestId ? { correlationId: meta.requestId } : {}) };
    const portrait = {
      aboutMe: input.about_me, personalityTraits: input.personality_traits, favoriteMusic: input.favorite_music, favoriteFilms: input.favorite_films, coreValues: input.core_values,
    };
    await handleCommand(this.deps.orm.em, this.store, portraitDecider, { type: 'SavePortrait', ownerId, portrait, now: new Date().toISOString() }, {
      streamId: portraitStreamId(ownerId), streamType: PORTRAIT_STREAM_TYPE, metadata,
    });
    return this.portrait(caller);
  }

  /** The sections of the vault owner's portrait that hold something, by name only: the owner's, or a key holder's of who-i-am. */
  portraitSections(caller: Caller): Promise<PortraitSections> {
    return findPortraitSections(this.em, vaultOwnerId(caller));
  }

  rebuildProjections(): Promise<RebuildReport[]> {
    return rebuildProjections(this.deps.orm.em, this.store, this.store.inlineProjections);
  }

  /**
   * Load, decide, append through the platform's handleCommand, with no expected version: a write
   * that loses a race re-reads and decides again (the decider compares ReviseLetter's
   * expectedVersion itself, so a stale editor gets CONFLICT, and a stranger NOT_FOUND before that).
   */
  private execute(id: string, command: LetterCommand, caller: Caller, meta?: RequestMeta) {
    return handleCommand(this.deps.orm.em, this.store, letterDecider, command, { streamId: letterStreamId(id), streamType: LETTER_STREAM_TYPE, metadata: this.metadata(caller, meta) });
  }

  /**
   * Deletes a letter as its owner would (LetterDeleted, its key and read-model rows gone, the deletion
   * published), for the system: a letter deleted after the snapshot a restore came from and alive
   * again in the restored store, or a letter of an erased account. An already deleted letter is left
   * as it is.
   */
  private async deleteLetterOfStream(streamId: string, actorId: 'erasure-journal' | 'account-erasure'): Promise<boolean> {
    const { state } = await aggregateStream(this.deps.orm.em.fork(), this.store, letterDecider, streamId);
    if (state.status !== 'written' || !state.ownerId) return false;
    const id = letterIdOfStream(streamId);
    await handleCommand(this.deps.orm.em, this.store, letterDecider, { type: 'DeleteLetter', letterId: id, ownerId: state.ownerId, now: new Date().toISOString() }, {
      streamId, streamType: LETTER_STREAM_TYPE, metadata: { actor: { kind: 'system', id: actorId } },
    });
    return true;
  }

  /**
   * The timeline's batch lookup: titles of the caller's own letters among `ids` (malformed, unknown and
   * others' ids omitted). A viewer whose key does not open Letters gets none (the timeline then leaves
   * the letters out of his page): the timeline section alone never shows a letter's title.
   */
  async titles(caller: Caller, ids: readonly string[]): Promise<TitlesReply> {
    if (!readsSection(caller, 'letters')) return { titles: {} };
    const wanted = [...new Set(ids.filter((id) => isUuid(id)).map((id) => id.toLowerCase()))];
    return { titles: await findLetterTitles(this.em, vaultOwnerId(caller), wanted, visibilityOf(caller)) };
  }
}
