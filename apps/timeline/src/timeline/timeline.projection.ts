import type { EntityManager } from '@mikro-orm/postgresql';
import { courtCategoryOf, CourtJournalEvents, LettersEvents, MEDIA_CONTENT_TYPES, VaultMediaEvents, type EventDeclaration, type ReceivedEvent, type ServiceName, type TimelineSource } from '@lv/contracts';

/** One stream the timeline reads: whose, which events, and how each one changes the rows. */
export interface TimelineFeed<E extends EventDeclaration = EventDeclaration> {
  source: ServiceName & TimelineSource;
  /**
   * The durable consumer's name, also its inbox key (rebuild clears that inbox). Not vault-media's old
   * `timeline-from-letters`: that durable has acked every letter event already, and a new timeline
   * must read the streams from their start.
   */
  consumer: string;
  events: readonly E[];
  /** Gets each event validated against its declaration: `event.subject` tells which, and types its data. */
  apply(em: EntityManager, event: ReceivedEvent<E>): Promise<void>;
}

/**
 * A deletion leaves a tombstone: inserted if the row is not there yet (the deletion arrived first),
 * marked otherwise, and only when the row is this owner's (another vault's event with the same id
 * never touches it).
 */
async function tombstone(em: EntityManager, source: TimelineSource, id: string, ownerId: string, deletedAt: string): Promise<void> {
  await em.execute(
    `insert into timeline_entries (source, id, owner_id, "timestamp", created_at, deleted_at) values (?, ?, ?, ?, ?, ?)
     on conflict (source, id) do update set deleted_at = excluded.deleted_at
      where timeline_entries.owner_id = excluded.owner_id and timeline_entries.deleted_at is null`,
    [source, id, ownerId, deletedAt, deletedAt, deletedAt],
  );
}

/** Letters publish ids, owner, word counts and times (never words): the title is fetched when read. */
const lettersEvents = [LettersEvents.LetterWritten, LettersEvents.LetterRevised, LettersEvents.LetterDeleted];
export const lettersFeed: TimelineFeed<(typeof lettersEvents)[number]> = {
  source: 'letters',
  consumer: 'timeline-letters',
  events: lettersEvents,
  async apply(em, event) {
    switch (event.subject) {
      case LettersEvents.LetterWritten.subject: {
        const d = event.data;
        await em.execute(
          `insert into timeline_entries (source, id, owner_id, type, entry_type, word_count, "timestamp", created_at)
           values ('letters', ?, ?, 'letter', 'message', ?, ?, ?) on conflict (source, id) do nothing`,
          [d.letterId, d.ownerId, d.wordCount, d.writtenAt, d.writtenAt],
        );
        break;
      }
      case LettersEvents.LetterRevised.subject: {
        const d = event.data;
        await em.execute(
          `update timeline_entries set word_count = ?, metadata = metadata || jsonb_build_object('revised_at', ?::text)
            where source = 'letters' and id = ? and owner_id = ? and deleted_at is null`,
          [d.wordCount, d.revisedAt, d.letterId, d.ownerId],
        );
        break;
      }
      case LettersEvents.LetterDeleted.subject: {
        const d = event.data;
        await tombstone(em, 'letters', d.letterId, d.ownerId, d.deletedAt);
        break;
      }
    }
  },
};

/** vault-media publishes ids, owner, object key, size, hash and times (never the title). */
const vaultMediaEvents = [VaultMediaEvents.RecordingSaved, VaultMediaEvents.RecordingHashVerified, VaultMediaEvents.RecordingHashMismatch, VaultMediaEvents.RecordingDeleted];
export const vaultMediaFeed: TimelineFeed<(typeof vaultMediaEvents)[number]> = {
  source: 'vault-media',
  consumer: 'timeline-vault-media',
  events: vaultMediaEvents,
  async apply(em, event) {
    switch (event.subject) {
      case VaultMediaEvents.RecordingSaved.subject: {
        const d = event.data;
        // Final messages are kept apart from the vault's story (If I'm Not There lists them); their later
        // events (verified, deleted) then update no row.
        if ((d.collection ?? 'vault') !== 'vault' || d.type === 'image') break;
        await em.execute(
          `insert into timeline_entries (source, id, owner_id, type, entry_type, file_path, blob_hash, size, integrity, metadata, "timestamp", created_at)
           values ('vault-media', ?, ?, ?, 'media', ?, ?, ?, 'pending', ?::jsonb, ?, ?) on conflict (source, id) do nothing`,
          [d.recordingId, d.ownerId, d.type, d.objectKey, d.sha256, d.size, JSON.stringify({ content_type: MEDIA_CONTENT_TYPES[d.type] }), d.savedAt, d.savedAt],
        );
        break;
      }
      case VaultMediaEvents.RecordingHashVerified.subject:
      case VaultMediaEvents.RecordingHashMismatch.subject: {
        const d = event.data;
        const integrity = event.subject === VaultMediaEvents.RecordingHashVerified.subject ? 'verified' : 'mismatch';
        await em.execute(
          `update timeline_entries set integrity = ? where source = 'vault-media' and id = ? and owner_id = ? and deleted_at is null`,
          [integrity, d.recordingId, d.ownerId],
        );
        break;
      }
      case VaultMediaEvents.RecordingDeleted.subject: {
        const d = event.data;
        await tombstone(em, 'vault-media', d.recordingId, d.ownerId, d.deletedAt);
        break;
      }
    }
  },
};

/**
 * court-journal publishes ids, owner, category, size, hash and times (never the title, description
 * or file name): a document of the upload form is a 'document' entry, one of a Court Journal card a
 * 'journal' entry. The file's hash is the entry's blob_hash; key evidence and the category are metadata.
 */
const courtJournalEvents = [CourtJournalEvents.CourtDocumentUploaded, CourtJournalEvents.CourtDocumentKeyEvidenceChanged, CourtJournalEvents.CourtDocumentDeleted];
export const courtJournalFeed: TimelineFeed<(typeof courtJournalEvents)[number]> = {
  source: 'court-journal',
  consumer: 'timeline-court-journal',
  events: courtJournalEvents,
  async apply(em, event) {
    switch (event.subject) {
      case CourtJournalEvents.CourtDocumentUploaded.subject: {
        const d = event.data;
        const type = d.variant === 'journal' ? 'journal' : 'document';
        // A message published before the one category model carries an old category: the entry names its card.
        await em.execute(
          `insert into timeline_entries (source, id, owner_id, type, entry_type, blob_hash, size, metadata, "timestamp", created_at)
           values ('court-journal', ?, ?, ?, 'media', ?, ?, ?::jsonb, ?, ?) on conflict (source, id) do nothing`,
          [d.documentId, d.ownerId, type, d.sha256, d.size, JSON.stringify({ category: courtCategoryOf(d.category) ?? d.category, is_key_evidence: false }), d.uploadedAt, d.uploadedAt],
        );
        break;
      }
      case CourtJournalEvents.CourtDocumentKeyEvidenceChanged.subject: {
        const d = event.data;
        await em.execute(
          `update timeline_entries set metadata = metadata || jsonb_build_object('is_key_evidence', ?::boolean)
            where source = 'court-journal' and id = ? and owner_id = ? and deleted_at is null`,
          [d.isKeyEvidence, d.documentId, d.ownerId],
        );
        break;
      }
      case CourtJournalEvents.CourtDocumentDeleted.subject: {
        const d = event.data;
        await tombstone(em, 'court-journal', d.documentId, d.ownerId, d.deletedAt);
        break;
      }
    }
  },
};

/** Every stream the timeline reads. Who-I-am media and final messages join here. */
export const TIMELINE_FEEDS: readonly TimelineFeed[] = [lettersFeed, vaultMediaFeed, courtJournalFeed];
