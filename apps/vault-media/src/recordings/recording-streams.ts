import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { MikroORM } from '@mikro-orm/postgresql';
import { aggregateStream, EventStore, handleCommand, PerStreamSealing, rebuildProjections, type EventMetadata, type RebuildReport } from '@lv/platform/event-store';
import { PgMediaObjects, type MediaObjects } from '../uploads/media-objects.repository.js';
import { vaultMediaPublishPolicy } from './publish-policy.js';
import { RecordingKeys, recordingSealing } from './recording-sealing.js';
import { RECORDING_STREAM_TYPE, recordingDecider, recordingStreamId, type RecordingCommand, type RecordingState } from './recording.decider.js';
import { recordingsProjection } from './recordings.projection.js';

/**
 * A unique key refused the command's writes, which were all rolled back: an object key already in
 * use, or the owner's same content saved twice (two uploads racing past the early check).
 */
export class AlreadyTaken extends Error {
  constructor(options?: ErrorOptions) {
    super('a unique key refused the write', options);
    this.name = 'AlreadyTaken';
  }
}

export interface RecordingOutcome {
  state: RecordingState;
  /** What the command appended (nothing, when the decider saw nothing to record). */
  events: readonly { type: string }[];
}

/**
 * The recording streams (`recording-{id}`): a command is decided on the stream's state and its events
 * appended, with the recordings read model and the media_objects writes of `withObjects` in the same
 * transaction (all or nothing).
 */
export interface RecordingStreams {
  load(recordingId: string): Promise<RecordingState>;
  /** Throws the decider's DomainError, or AlreadyTaken. */
  execute(recordingId: string, command: RecordingCommand, metadata: EventMetadata, withObjects?: (objects: MediaObjects) => Promise<void>): Promise<RecordingOutcome>;
}

/** Recording streams in the event store, each title sealed under its recording's own key (shredded with the recording). */
export class PgRecordingStreams implements RecordingStreams {
  readonly sealing = new PerStreamSealing([recordingSealing(new RecordingKeys())]);

  readonly store = new EventStore({
    publish: vaultMediaPublishPolicy,
    inlineProjections: [recordingsProjection],
    sealing: this.sealing,
  });

  constructor(private readonly orm: MikroORM) {}

  async load(recordingId: string): Promise<RecordingState> {
    return (await aggregateStream(this.orm.em.fork(), this.store, recordingDecider, recordingStreamId(recordingId))).state;
  }

  async execute(recordingId: string, command: RecordingCommand, metadata: EventMetadata, withObjects?: (objects: MediaObjects) => Promise<void>): Promise<RecordingOutcome> {
    try {
      return await handleCommand(this.orm.em, this.store, recordingDecider, command, {
        streamId: recordingStreamId(recordingId), streamType: RECORDING_STREAM_TYPE, metadata,
        alsoInTransaction: withObjects && ((em) => withObjects(new PgMediaObjects(() => em))),
      });
    } catch (err) {
      if (err instanceof UniqueConstraintViolationException) throw new AlreadyTaken({ cause: err });
      throw err;
    }
  }

  rebuildProjections(): Promise<RebuildReport[]> {
    return rebuildProjections(this.orm.em, this.store, [recordingsProjection]);
  }
}
