import type { IdentityEvent } from './identity.js';
import type { LetterEventType } from './letters.js';
import type { PublishedRecordingEventType } from './media.js';

type IdentityEventType = IdentityEvent['type'];

/**
 * The one registry of NATS subjects. Request-reply patterns live under `rpc.<service>.` and domain
 * events under `<service>.<aggregate>.<event>.v1`, so a service's JetStream stream (`<service>.>`)
 * never captures request-reply traffic.
 */
export const SERVICES = ['identity', 'vault-media', 'letters', 'court-journal', 'access-keys', 'notifications', 'billing'] as const;
export type ServiceName = (typeof SERVICES)[number];

/** JetStream stream holding one service's events. */
export function streamNameFor(service: ServiceName): string {
  return `LV_${service.replace(/-/g, '_').toUpperCase()}`;
}

export const IdentityRpc = {
  health: 'rpc.identity.health',
  signUp: 'rpc.identity.sign-up',
  signIn: 'rpc.identity.sign-in',
  refresh: 'rpc.identity.refresh',
  signOut: 'rpc.identity.sign-out',
  getMe: 'rpc.identity.get-me',
  updateMe: 'rpc.identity.update-me',
  // Operator commands (ops CLI): the caller must hold an operator token.
  findUserByEmail: 'rpc.identity.op.find-user',
  setAdmin: 'rpc.identity.op.set-admin',
  setTier: 'rpc.identity.op.set-tier',
  rebuildProjections: 'rpc.identity.op.rebuild-projections',
} as const;

export const IdentityEvents = {
  UserRegistered: 'identity.user.registered.v1',
  ProfileUpdated: 'identity.user.profile-updated.v1',
  SubscriptionTierChanged: 'identity.user.tier-changed.v1',
  AdminGranted: 'identity.user.admin-granted.v1',
  AdminRevoked: 'identity.user.admin-revoked.v1',
  PasswordChanged: 'identity.user.password-changed.v1',
} as const satisfies Record<IdentityEventType, string>;

export const LettersRpc = {
  health: 'rpc.letters.health',
  /** VaultStatsContribution: lettersWritten, thoughtsSaved and the days letters (or the reflection) were saved. */
  stats: 'rpc.letters.stats',
  list: 'rpc.letters.list',
  get: 'rpc.letters.get',
  write: 'rpc.letters.write',
  revise: 'rpc.letters.revise',
  delete: 'rpc.letters.delete',
  /** The caller's vault-home reflection (letters.ts: Reflection); save takes SaveReflectionRequest. */
  reflectionGet: 'rpc.letters.reflection.get',
  reflectionSave: 'rpc.letters.reflection.save',
  // Operator command (ops CLI).
  rebuildProjections: 'rpc.letters.op.rebuild-projections',
} as const;

/** Published payloads carry ids, counts and times only (letters.ts: LetterWrittenV1...), never words. */
export const LettersEvents = {
  LetterWritten: 'letters.letter.written.v1',
  LetterRevised: 'letters.letter.revised.v1',
  LetterDeleted: 'letters.letter.deleted.v1',
} as const satisfies Record<LetterEventType, string>;

export const VaultMediaRpc = {
  health: 'rpc.vault-media.health',
  /** VaultStatsContribution: videosSaved (video and audio) and the days recordings were saved. */
  stats: 'rpc.vault-media.stats',
  startUpload: 'rpc.vault-media.start-upload',
  listRecordings: 'rpc.vault-media.list-recordings',
  timeline: 'rpc.vault-media.timeline',
  deleteEntry: 'rpc.vault-media.delete-entry',
  playbackLink: 'rpc.vault-media.playback-link',
  /** From the worker's media-hashing job, authorised by the job's report token (media.ts: ReportHashPayload). */
  reportHash: 'rpc.vault-media.report-hash',
  // Operator command (ops CLI).
  rebuildProjections: 'rpc.vault-media.op.rebuild-projections',
} as const;

/** Published payloads carry ids, sizes, hashes and times only (media.ts: RecordingSavedV1...), never titles. */
export const VaultMediaEvents = {
  RecordingSaved: 'vault-media.recording.saved.v1',
  RecordingHashVerified: 'vault-media.recording.hash-verified.v1',
  RecordingHashMismatch: 'vault-media.recording.hash-mismatch.v1',
  RecordingDeleted: 'vault-media.recording.deleted.v1',
} as const satisfies Record<PublishedRecordingEventType, string>;

/** How the caller travels with every request: services verify the token themselves. */
export interface CallerAuth {
  accessToken?: string;
}

export interface RequestMeta {
  requestId: string;
  /** Client address as the gateway saw it, for per-address limits. */
  ip?: string;
  userAgent?: string;
  /** Sign-in only: the browser's device id, sent when its signed lv_device cookie proves an earlier sign-in to the same email. */
  device?: string;
}

/** The envelope of every request-reply message. */
export interface RpcRequest<T = unknown> {
  auth: CallerAuth;
  meta: RequestMeta;
  payload: T;
}

/** Envelope metadata carried by every stored and published event. */
export interface EventMetadata {
  correlationId?: string;
  causationId?: string;
  actor?: { kind: 'user' | 'operator' | 'system'; id: string };
}

/** The JSON body of every event published on JetStream. */
export interface PublishedEvent<T = unknown> {
  eventId: string;
  type: string;
  streamId: string;
  version: number;
  occurredAt: string;
  data: T;
  metadata: EventMetadata;
}

/**
 * Services that contribute to the vault home's numbers answer `rpc.<service>.stats` with
 * `VaultStatsContribution`. The gateway adds up whatever the listed services report; services join
 * this list when they exist (vault-media, letters), so no number is ever invented.
 */
export const VAULT_STATS_PROVIDERS: readonly ServiceName[] = ['vault-media', 'letters'];

export const statsSubject = (service: ServiceName) => `rpc.${service}.stats`;
export const healthSubject = (service: ServiceName) => `rpc.${service}.health`;
/** Operator command every service answers: rebuild its read models from its event store. */
export const rebuildSubject = (service: ServiceName) => `rpc.${service}.op.rebuild-projections`;

export interface VaultStatsContribution {
  videosSaved?: number;
  lettersWritten?: number;
  /** 1 when the caller's reflection ("Thoughts & Feelings") is saved and not blank, else 0. */
  thoughtsSaved?: number;
  /** ISO calendar days (YYYY-MM-DD, UTC) on which this service saved something for the caller. */
  activeDays: string[];
}
