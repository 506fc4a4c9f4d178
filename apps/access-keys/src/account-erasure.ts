import type { MikroORM } from '@mikro-orm/postgresql';
import type { ErasureHandler, EventMetadata } from '@lv/platform/event-store';
import type { AccessKeysService } from './access-keys.service.js';
import type { DeliveryService } from './if-im-not-there/delivery.service.js';
import type { InactivityService } from './if-im-not-there/inactivity.service.js';
import type { TrusteesService } from './trustees/trustees.service.js';

/** How an erased account is filed in the erasure journal (ids only): its replay erases the account again. */
export const ACCOUNT_ERASURE_TYPE = 'account';
const accountStreamId = (ownerId: string) => `${ACCOUNT_ERASURE_TYPE}-${ownerId}`;
const ownerIdOfAccount = (streamId: string) => streamId.slice(`${ACCOUNT_ERASURE_TYPE}-`.length);

/** The read models that hold an owner's people (names, addresses, messages, devices) in the clear, by owner. */
const OWNER_ROWS = ['access_requests', 'access_keys', 'emergency_contacts', 'delivery_settings', 'trustees', 'request_settings', 'owner_last_seen'] as const;

const SYSTEM: EventMetadata = { actor: { kind: 'system', id: 'account-erasure' } };

export interface AccountErasureReport {
  trustees: number;
  keys: number;
  deliveryCancelled: boolean;
  watchStopped: boolean;
  /** Streams whose personal-data key was destroyed. */
  streams: number;
}

/**
 * "Delete my account" (issue 32), access-keys' part, when identity's AccountErased arrives: first what
 * the owner could do himself (every trustee removed, every key revoked and its viewer sessions ended at
 * once everywhere, a delivery under way cancelled, the inactivity watch turned off: no timer is left
 * to fire), then the erasure: every personal-data key of his streams destroyed and journaled (the
 * events keep ids, times and decisions), and the read-model rows that hold his people in the clear
 * deleted. The account itself is journaled last, so a restore of an older snapshot erases it all again
 * before the service takes a request or re-arms a timer. Once journaled here, a second AccountErased
 * finds nothing to do.
 */
export class AccountErasure {
  /** The erasure journal's replay: an account a restore brought back is erased again. */
  readonly handler: ErasureHandler = {
    streamType: ACCOUNT_ERASURE_TYPE,
    eraseAgain: async (streamId) => (await this.run(ownerIdOfAccount(streamId))) !== null,
  };

  constructor(private readonly deps: {
    orm: MikroORM; access: AccessKeysService; trustees: TrusteesService; delivery: DeliveryService; inactivity: InactivityService;
  }) {}

  /** Erases the owner's account here; null when it already was (this database journals it). */
  async run(ownerId: string): Promise<AccountErasureReport | null> {
    const { orm, access, trustees, delivery, inactivity } = this.deps;
    const journaled = await orm.em.fork().execute<unknown[]>('select 1 from erasure_journal where stream_type = ? and stream_id = ?', [ACCOUNT_ERASURE_TYPE, accountStreamId(ownerId)]);
    if (journaled.length > 0) return null;

    const removedTrustees = await trustees.removeAllOf(ownerId, SYSTEM);
    const keys = await access.revokeEveryKeyOf(ownerId, SYSTEM);
    const deliveryCancelled = await orm.em.fork().transactional((em) => delivery.cancelIn(em, ownerId, SYSTEM));
    const watchStopped = await inactivity.stopWatch(ownerId, SYSTEM);

    const streams = await orm.em.fork().transactional(async (em) => {
      // Every access-keys event names its owner: his streams are those whose events name him.
      const owned = await em.execute<{ stream_id: string; stream_type: string }[]>(
        `select distinct stream_id, stream_type from events where data->>'ownerId' = ? order by stream_id`, [ownerId]);
      let erased = 0;
      for (const stream of owned) if (await access.sealing.inner.erase(em, stream.stream_type, stream.stream_id)) erased++;
      await em.execute('delete from view_session_views where session_id in (select id from view_sessions where owner_id = ?)', [ownerId]);
      await em.execute('delete from view_sessions where owner_id = ?', [ownerId]);
      for (const table of OWNER_ROWS) await em.execute(`delete from ${table} where owner_id = ?`, [ownerId]);
      await em.execute('insert into erasure_journal (stream_type, stream_id, key_id) values (?, ?, ?)', [ACCOUNT_ERASURE_TYPE, accountStreamId(ownerId), ownerId]);
      return erased;
    });
    return { trustees: removedTrustees, keys, deliveryCancelled, watchStopped, streams };
  }
}
