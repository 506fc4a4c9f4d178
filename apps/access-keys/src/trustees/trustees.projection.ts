import type { EntityManager } from '@mikro-orm/postgresql';
import type { Relationship, Trustee, TrusteeStatus } from '@lv/contracts';
import { projectionFor } from '@lv/platform/event-store';
import type { TrusteesEvent } from './trustees.decider.js';

/**
 * trustees: each owner's trustees as his list shows them (rebuildable from the `trustees-{ownerId}`
 * streams). A removed trustee keeps its row (the owner sees "removed") without his name and address;
 * link hashes are never here, only in the stream.
 */
export const trusteesProjection = projectionFor<TrusteesEvent>({
  name: 'trustees',
  handles: ['TrusteeNamed', 'TrusteeLinkIssued', 'TrusteeAccepted', 'TrusteeDeclined', 'TrusteeRemoved'],

  async apply(em, events) {
    for (const event of events) {
      switch (event.type) {
        case 'TrusteeNamed': {
          const d = event.data;
          await em.execute(
            `insert into trustees (id, owner_id, name, email, relationship, status, created_at) values (?, ?, ?, ?, ?, 'named', ?) on conflict (id) do nothing`,
            [d.trusteeId, d.ownerId, d.personal?.name ?? '', d.personal?.email ?? '', d.relationship, d.namedAt],
          );
          break;
        }
        case 'TrusteeLinkIssued': {
          const d = event.data;
          // An invitation (first or again) shows when it was sent and until when it works; a later link for an accepted trustee changes nothing shown.
          if (d.kind === 'invitation') {
            await em.execute(`update trustees set status = 'invited', invited_at = ?, invitation_expires_at = ? where id = ? and status in ('named', 'invited')`, [d.issuedAt, d.expiresAt, d.trusteeId]);
          }
          break;
        }
        case 'TrusteeAccepted':
          await em.execute(`update trustees set status = 'accepted', answered_at = ?, invitation_expires_at = null where id = ?`, [event.data.acceptedAt, event.data.trusteeId]);
          break;
        case 'TrusteeDeclined':
          await em.execute(`update trustees set status = 'declined', answered_at = ?, invitation_expires_at = null where id = ?`, [event.data.declinedAt, event.data.trusteeId]);
          break;
        case 'TrusteeRemoved':
          // His name and address go with him (issue 33): the row keeps only that someone was removed, and when.
          await em.execute(`update trustees set status = 'removed', removed_at = ?, invitation_expires_at = null, name = '', email = '' where id = ?`, [event.data.removedAt, event.data.trusteeId]);
          break;
        // Reports and vetoes are read from the stream (one owner's, small); the list shows no column for them.
        case 'TrusteeReported':
        case 'TrusteeReportVetoed':
          break;
      }
    }
  },

  async reset(em) {
    await em.execute('delete from trustees');
  },
});

interface TrusteeRow {
  id: string;
  name: string;
  email: string;
  relationship: Relationship;
  status: TrusteeStatus;
  invited_at: Date | null;
  invitation_expires_at: Date | null;
  answered_at: Date | null;
  removed_at: Date | null;
}

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
const toTrustee = (row: TrusteeRow): Trustee => ({
  id: row.id, name: row.name, email: row.email, relationship: row.relationship, status: row.status,
  invitedAt: iso(row.invited_at), invitationExpiresAt: iso(row.invitation_expires_at), answeredAt: iso(row.answered_at), removedAt: iso(row.removed_at),
});

const SELECT = `select id, name, email, relationship, status, invited_at, invitation_expires_at, answered_at, removed_at from trustees`;

/** The owner's trustees, the ones still listed first, each group in the order named. */
export async function findTrustees(em: EntityManager, ownerId: string): Promise<Trustee[]> {
  const rows = await em.execute<TrusteeRow[]>(`${SELECT} where owner_id = ? order by (status = 'removed'), created_at, id`, [ownerId]);
  return rows.map(toTrustee);
}

export async function findTrustee(em: EntityManager, ownerId: string, trusteeId: string): Promise<Trustee | null> {
  const [row] = await em.execute<TrusteeRow[]>(`${SELECT} where owner_id = ? and id = ?`, [ownerId, trusteeId]);
  return row ? toTrustee(row) : null;
}

/** "Send me my trustee link": every owner this address is an invited or accepted trustee of. */
export function findTrusteesByEmail(em: EntityManager, email: string): Promise<{ id: string; owner_id: string }[]> {
  return em.execute<{ id: string; owner_id: string }[]>(`select id, owner_id from trustees where email = ? and status in ('invited', 'accepted')`, [email.toLowerCase()]);
}

/** Whether another owner already uses this trustee id. */
export async function trusteeIdTaken(em: EntityManager, trusteeId: string, ownerId: string): Promise<boolean> {
  const [row] = await em.execute<{ n: number }[]>(`select count(*)::int as n from trustees where id = ? and owner_id <> ?`, [trusteeId, ownerId]);
  return (row?.n ?? 0) > 0;
}
