import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import {
  isUuid, SUDO_WINDOW_SECONDS, TRUSTEE_INVITATIONS_PER_ADDRESS_PER_DAY, TRUSTEE_INVITATIONS_PER_OWNER_PER_DAY, TRUSTEE_LINK_REQUESTS_PER_HOUR, trusteeLinkSealContext, TrusteeMessages, type AddTrusteePayload, type RequestMeta, type Trustee, type TrusteeAnswerRequest,
  type TrusteeLink, type TrusteeLinkJob, type TrusteeReport, type TrusteeReportCloseReason, type TrusteeReportHistoryEntry, type TrusteeReportNoticeJob, type TrusteeReportNoticeState,
  type TrusteeReportPayload, type TrusteeView,
} from '@lv/contracts';
import { ownerOf, requireRecentProof, type Caller, type UserCaller } from '@lv/platform/auth';
import { DomainError } from '@lv/platform/errors';
import { aggregateStream, decideAndAppend, foldEvents, handleCommand, retryOnConflict, type EventMetadata, type EventStore } from '@lv/platform/event-store';
import { takeOrRefuse, type RateBudgets } from '@lv/platform/limits';
import type { OwnerLinkSigner } from '@lv/platform/links';
import { enqueue, sealForJob, type TypedQueue } from '@lv/platform/queues';
import { addressOf } from '../address-limits.js';
import { delayUntil, reminderNoticeId, reportNoticeJobId } from '../timers/timer-plan.js';
import { findDeliverySettings } from '../if-im-not-there/if-im-not-there.projections.js';
import type { DeliveryService } from '../if-im-not-there/delivery.service.js';
import {
  reminderTimes, reportHistory, trusteeByLink, TRUSTEES_STREAM_TYPE, trusteesDecider, trusteesStreamId, type TrusteeLinkRecord, type TrusteesCommand, type TrusteesEvent,
  type TrusteesState,
} from './trustees.decider.js';
import { findTrustee, findTrustees, findTrusteesByEmail, trusteeIdTaken } from './trustees.projection.js';
import type { TrusteeSealing } from './trustee-sealing.js';

/** The purpose trustee links are signed for (their own sub-key of the key e-mail secret). */
export const TRUSTEE_LINK_PURPOSE = 'trustee';
/** A link's secret part: only its SHA-256 is kept (in the trustees stream). */
const hashLinkSecret = (secret: string) => createHash('sha256').update(secret, 'utf8').digest('hex');

export interface TrusteesDeps {
  orm: MikroORM;
  store: EventStore;
  /** Signs the trustee links (namespace access-keys/trustee, valid TRUSTEE_LINK_VALID_DAYS). */
  links: OwnerLinkSigner;
  /** The trustee-links queue (notifications' worker sends them). */
  mail: TypedQueue<TrusteeLinkJob>;
  /** Seals each link into its e-mail job (notifications holds the same secret). */
  keyMailSecret: string;
  /** The owner's name as the e-mails and the trustee's page show it (identity's display name). */
  ownerName: (ownerId: string, meta: RequestMeta) => Promise<string | null>;
  limits: RateBudgets;
  /** A report starts the owner's delivery (held back by the veto window); a veto cancels it. */
  delivery: DeliveryService;
  /** The report e-mails (notifications' worker): to the owner at once and as reminders, to the reporter once withdrawn. */
  reportNotices: TypedQueue<TrusteeReportNoticeJob>;
  /** The owner's veto window after a report (config TRUSTEE_REPORT_VETO_HOURS; production boot refuses below 72). */
  vetoHours: number;
  now?: () => Date;
}

/** A link minted for one trustee: its record (kept) and its URL (sealed into the e-mail job only). */
interface MintedLink {
  record: TrusteeLinkRecord;
  url: string;
}

/**
 * Trustees (issue 31, first slice): the owner names up to five; each is e-mailed a signed, single-use
 * invitation valid 14 days and answers it from /trustee without an account. The owner is always the
 * verified caller; a trustee is whoever presents a link that is signed, current and not yet used.
 */
/**
 * The owner behind an invitation, whose address is verified: an invitation e-mails a third party in
 * his name, which waits until he has proven his own address (his token's claim: identity sets it at
 * every sign-in and refresh, as it sets the tier this service already trusts). EMAIL_NOT_VERIFIED otherwise.
 */
function verifiedOwnerOf(caller: Caller): UserCaller {
  const owner = ownerOf(caller);
  if (!owner.emailVerified) throw new DomainError('EMAIL_NOT_VERIFIED', TrusteeMessages.verifyEmailFirst);
  return owner;
}

export class TrusteesService {
  constructor(private readonly deps: TrusteesDeps) {}

  private now(): string {
    return (this.deps.now?.() ?? new Date()).toISOString();
  }

  /** The owner's trustees; the delivery settings' single trustee, if any, is adopted first (once, not invited). */
  async list(caller: Caller, meta: RequestMeta): Promise<Trustee[]> {
    const owner = ownerOf(caller);
    const em = this.deps.orm.em.fork();
    const state = await this.state(em, owner.userId);
    if (!state.everNamed) {
      const settings = await findDeliverySettings(em, owner.userId);
      if (settings.trustee_email) {
        const details = { name: settings.trustee_name || settings.trustee_email, email: settings.trustee_email.toLowerCase() };
        await this.run(owner.userId, { type: 'AdoptLegacyTrustee', ownerId: owner.userId, trusteeId: randomUUID(), details, now: this.now() }, this.actor(owner.userId, meta), meta);
      }
    }
    return findTrustees(this.deps.orm.em.fork(), owner.userId);
  }

  async add(caller: Caller, input: AddTrusteePayload, meta: RequestMeta): Promise<Trustee> {
    const owner = verifiedOwnerOf(caller);
    // Sudo mode: who may declare the owner gone is decided with a fresh proof of who he is.
    requireRecentProof(caller, SUDO_WINDOW_SECONDS);
    const trusteeId = input.id.toLowerCase();
    // Ids are the browsers' and one table holds every owner's trustees: an id another owner uses is taken.
    if (await trusteeIdTaken(this.deps.orm.em.fork(), trusteeId, owner.userId)) throw new DomainError('CONFLICT', 'This trustee id is already in use.');
    const link = this.mint(owner.userId, trusteeId);
    await this.inviting(owner.userId, input.email, () => this.run(owner.userId, {
      type: 'AddTrustee', ownerId: owner.userId, trusteeId, relationship: input.relationship, details: { name: input.name, email: input.email }, link: link.record, now: this.now(),
    }, this.actor(owner.userId, meta), meta, link, owner.email));
    return this.trustee(owner.userId, trusteeId);
  }

  /** The invitation again (a trustee never invited, e.g. adopted from the settings, gets their first): a new link replaces the old. */
  async resend(caller: Caller, id: string, meta: RequestMeta): Promise<Trustee> {
    const owner = verifiedOwnerOf(caller);
    const trustee = await this.trustee(owner.userId, id);
    const link = this.mint(owner.userId, trustee.id);
    await this.inviting(owner.userId, trustee.email, () =>
      this.run(owner.userId, { type: 'InviteTrustee', ownerId: owner.userId, trusteeId: trustee.id, link: link.record, now: this.now() }, this.actor(owner.userId, meta), meta, link, owner.email));
    return this.trustee(owner.userId, trustee.id);
  }

  /**
   * An invitation e-mail counts against the owner's daily budget and the address's (TRUSTEE_INVITATIONS_*):
   * past either, RATE_LIMITED and nothing is recorded or sent. An invitation the rules refuse (a sixth
   * trustee, an answered one) gives its count back.
   */
  private async inviting<T>(ownerId: string, email: string, invite: () => Promise<T>): Promise<T> {
    const budgets = [
      { key: `trustee-invite-owner:${ownerId}`, limit: TRUSTEE_INVITATIONS_PER_OWNER_PER_DAY },
      { key: `trustee-invite-to:${hashLinkSecret(email.trim().toLowerCase())}`, limit: TRUSTEE_INVITATIONS_PER_ADDRESS_PER_DAY },
    ];
    await takeOrRefuse(this.deps.limits, budgets, 86_400, TrusteeMessages.tooManyInvitations);
    try {
      return await invite();
    } catch (err) {
      await this.deps.limits.giveBack(budgets.map((b) => b.key));
      throw err;
    }
  }

  /** Removed: their link stops working in the same commit. */
  async remove(caller: Caller, id: string, meta: RequestMeta): Promise<Trustee> {
    const owner = requireRecentProof(caller, SUDO_WINDOW_SECONDS);
    const trustee = await this.trustee(owner.userId, id);
    await this.run(owner.userId, { type: 'RemoveTrustee', ownerId: owner.userId, trusteeId: trustee.id, now: this.now() }, this.actor(owner.userId, meta), meta);
    return this.trustee(owner.userId, trustee.id);
  }

  /** The owner's account is erased: every trustee still listed removed as he would remove them (each one's name and address shredded). */
  async removeAllOf(ownerId: string, metadata: EventMetadata): Promise<number> {
    const listed = Object.values((await this.state(this.deps.orm.em.fork(), ownerId)).trustees).filter((t) => t.status !== 'removed');
    for (const trustee of listed) {
      await this.run(ownerId, { type: 'RemoveTrustee', ownerId, trusteeId: trustee.trusteeId, now: this.now() }, metadata, { requestId: 'account-erasure' });
    }
    return listed.length;
  }

  /**
   * The erasure journal's replay (issue 33): a trustee removed after the snapshot a restore came from
   * is listed again, his name and address back. Removed again as his owner removed him (TrusteeRemoved:
   * his key destroyed and journaled, his row scrubbed); one restored already removed but still named
   * (from before trustees had keys of their own) is scrubbed and his key destroyed. True when there was
   * something to erase.
   */
  async eraseAgain(trusteeId: string, sealing: TrusteeSealing): Promise<boolean> {
    const [row] = await this.deps.orm.em.fork().execute<{ owner_id: string; status: string; named: boolean }[]>(
      `select owner_id::text, status, (name <> '' or email <> '') as named from trustees where id = ?`, [trusteeId]);
    if (!row) return false;
    if (row.status !== 'removed') {
      await this.run(row.owner_id, { type: 'RemoveTrustee', ownerId: row.owner_id, trusteeId, now: this.now() }, { actor: { kind: 'system', id: 'erasure-journal' } }, { requestId: 'erasure-journal' });
      return true;
    }
    if (!row.named) return false;
    await this.deps.orm.em.fork().transactional(async (em) => {
      await em.execute(`update trustees set name = '', email = '' where id = ?`, [trusteeId]);
      await sealing.keys.destroy(em, trusteeId);
    });
    return true;
  }

  /** The trustee's page: only what the role needs (who named them, as what, and their answer). */
  async view(link: TrusteeLink, meta: RequestMeta): Promise<TrusteeView> {
    const { ownerId, trustee } = await this.verify(this.deps.orm.em.fork(), link);
    return this.toView(ownerId, trustee, meta);
  }

  /** Accept or decline, once: the answer uses the link up. */
  async answer(input: TrusteeAnswerRequest, meta: RequestMeta): Promise<TrusteeView> {
    const { ownerId, trustee } = await this.verify(this.deps.orm.em.fork(), input);
    const state = await this.run(ownerId, { type: 'AnswerInvitation', ownerId, trusteeId: trustee.trusteeId, linkHash: hashLinkSecret(input.n), answer: input.answer, now: this.now() }, {
      actor: { kind: 'system', id: `trustee-${trustee.trusteeId}` }, correlationId: meta.requestId,
    }, meta);
    return this.toView(ownerId, state.trustees[trustee.trusteeId]!, meta, state);
  }

  /**
   * An accepted trustee reports what happened. The report and the delivery's start commit together;
   * the delivery is due no earlier than the end of the owner's veto window, whatever his timing.
   */
  async report(input: TrusteeReportPayload, meta: RequestMeta): Promise<TrusteeView> {
    const { ownerId, trustee } = await this.verify(this.deps.orm.em.fork(), input);
    const now = this.now();
    const vetoEndsAt = new Date(Date.parse(now) + this.deps.vetoHours * 3600 * 1000).toISOString();
    const metadata: EventMetadata = { actor: { kind: 'system', id: `trustee-${trustee.trusteeId}` }, ...(meta.requestId ? { correlationId: meta.requestId } : {}) };
    const sharedBy = await this.ownerName(ownerId, meta);
    const result = await handleCommand(this.deps.orm.em, this.deps.store, trusteesDecider, {
      type: 'ReportOwner', ownerId, trusteeId: trustee.trusteeId, linkHash: hashLinkSecret(input.n), reportId: randomUUID(), kind: input.kind, note: input.note, vetoEndsAt, now,
    }, {
      streamId: trusteesStreamId(ownerId), streamType: TRUSTEES_STREAM_TYPE, metadata,
      alsoInTransaction: async (em, events) => {
        const reported = events.find((e) => e.type === 'TrusteeReported');
        if (reported?.type !== 'TrusteeReported') return;
        const { reportId, reportedAt, vetoEndsAt } = reported.data;
        await this.deps.delivery.triggerIn(em, ownerId, sharedBy, 'trustee-report', metadata, vetoEndsAt);
        // The owner is told at once and reminded during the window; each job is sent only while the report is still open.
        await this.notice(ownerId, reportId, 'reported');
        for (const [i, at] of reminderTimes(reportedAt, vetoEndsAt).entries()) await this.notice(ownerId, reportId, 'reminder', reminderNoticeId(reportId, i), at);
      },
    });
    return this.toView(ownerId, result.state.trustees[trustee.trusteeId]!, meta, result.state);
  }

  /** The owner's banner (the report under way, if any, with its reporter's name) and his report history. */
  async openReport(caller: Caller): Promise<{ report: TrusteeReport | null; history: TrusteeReportHistoryEntry[] }> {
    const owner = ownerOf(caller);
    const { state, events } = await this.stateAndEvents(this.deps.orm.em.fork(), owner.userId);
    const nameOf = (trusteeId: string) => state.trustees[trusteeId]?.details?.name ?? '';
    const history = reportHistory(events).map(({ trusteeId, ...entry }) => ({ ...entry, trusteeName: nameOf(trusteeId) }));
    const open = state.openReport;
    if (!open) return { report: null, history };
    const { reportId, kind, note, reportedAt, vetoEndsAt } = open;
    return { report: { reportId, kind, note, reportedAt, vetoEndsAt, trusteeName: nameOf(open.trusteeId) }, history };
  }

  /** "I'm still here": the report ends and the delivery it started is cancelled, in one transaction. */
  async veto(caller: Caller, meta: RequestMeta): Promise<{ message: typeof TrusteeMessages.vetoed }> {
    const owner = ownerOf(caller);
    const metadata = this.actor(owner.userId, meta);
    await retryOnConflict(5, () => this.deps.orm.em.fork().transactional(async (em) => {
      if (!(await this.closeIn(em, owner.userId, 'veto', this.now(), metadata))) throw new DomainError('CONFLICT', TrusteeMessages.noOpenReport);
    }));
    return { message: TrusteeMessages.vetoed };
  }

  /**
   * A sign of life (the veto, a sign-in, a check-in) inside the caller's transaction: the open report,
   * if it was made before `at`, ends; the delivery it started is cancelled and its reporter is told it
   * was withdrawn, all in the same commit. True when a report was closed.
   */
  async closeIn(em: EntityManager, ownerId: string, reason: TrusteeReportCloseReason, at: string, metadata: EventMetadata): Promise<boolean> {
    const result = await decideAndAppend(em, this.deps.store, trusteesDecider, { type: 'CloseReport', ownerId, reason, at, now: this.now() }, {
      streamId: trusteesStreamId(ownerId), streamType: TRUSTEES_STREAM_TYPE, metadata,
    });
    const closed = result.events.find((e) => e.type === 'TrusteeReportVetoed');
    if (closed?.type !== 'TrusteeReportVetoed') return false;
    await this.deps.delivery.cancelIn(em, ownerId, metadata);
    await this.notice(ownerId, closed.data.reportId, 'withdrawn');
    return true;
  }

  /**
   * notifications' question before it sends a report e-mail: open (the owner's notices go), closed (the
   * reporter's withdrawn notice goes; a reminder is dropped) or unknown (not committed yet), with the
   * words the e-mail needs and nothing else of the owner's account.
   */
  async noticeState(ownerId: string, reportId: string): Promise<TrusteeReportNoticeState> {
    const { state, events } = await this.stateAndEvents(this.deps.orm.em.fork(), ownerId);
    const reported = events.find((e) => e.type === 'TrusteeReported' && e.data.reportId === reportId);
    if (reported?.type !== 'TrusteeReported') return { state: 'unknown', report: null };
    const { trusteeId, kind, reportedAt, vetoEndsAt } = reported.data;
    const closed = reportHistory(events).find((r) => r.reportId === reportId)?.closedAt ?? null;
    const details = state.trustees[trusteeId]?.details;
    return {
      state: closed ? 'closed' : 'open',
      report: { kind, note: reported.data.personal?.note ?? '', reportedAt, vetoEndsAt, trusteeName: details?.name ?? '', trusteeEmail: details?.email ?? '', closedAt: closed },
    };
  }

  /** Queues one report e-mail (inside the caller's transaction, before its commit): one job per notice, `at` delays a reminder. */
  private async notice(ownerId: string, reportId: string, kind: TrusteeReportNoticeJob['kind'], noticeId = `${reportId}-${kind}`, at?: string): Promise<void> {
    const delay = at ? delayUntil(at, new Date().toISOString()) : 0;
    await enqueue(this.deps.reportNotices, { noticeId, reportId, ownerId, kind }, reportNoticeJobId(noticeId), delay ? { delay } : {});
  }

  /**
   * "Send me my trustee link": a new link to every owner's trustee with this address who is invited
   * or accepted, at most a few an hour per address e-mailed (the rest are dropped silently). The answer
   * is the same whatever the address; only the client address's own budget can refuse.
   */
  async requestLink(email: string, meta: RequestMeta): Promise<{ message: typeof TrusteeMessages.linkRequested }> {
    await takeOrRefuse(this.deps.limits, [{ key: `trustee-link:${addressOf(meta.ip)}`, limit: TRUSTEE_LINK_REQUESTS_PER_HOUR }], 3600, TrusteeMessages.tooManyLinkRequests);
    const address = email.toLowerCase();
    if ((await this.deps.limits.take([{ key: `trustee-link-to:${hashLinkSecret(address)}`, limit: TRUSTEE_LINK_REQUESTS_PER_HOUR }], 3600)).allowed) {
      for (const row of await findTrusteesByEmail(this.deps.orm.em.fork(), address)) {
        const link = this.mint(row.owner_id, row.id);
        await this.run(row.owner_id, { type: 'IssueTrusteeLink', ownerId: row.owner_id, trusteeId: row.id, link: link.record, now: this.now() }, {
          actor: { kind: 'system', id: 'trustee-link-request' }, correlationId: meta.requestId,
        }, meta, link, null);
      }
    }
    return { message: TrusteeMessages.linkRequested };
  }

  /** notifications' question before it sends a link: still this trustee's current, unexpired link? */
  async linkState(ownerId: string, trusteeId: string, linkId: string): Promise<{ state: 'current' | 'stale' | 'unknown' }> {
    // One read of the stream for both answers: two reads could fall either side of the link's commit
    // (the job is queued just before it) and call a link that is about to be current "stale".
    const { state, events } = await this.stateAndEvents(this.deps.orm.em.fork(), ownerId);
    const trustee = state.trustees[trusteeId];
    if (!trustee) return { state: 'unknown' };
    const current = trustee.link?.linkId === linkId && Date.parse(trustee.link.expiresAt) > Date.parse(this.now());
    if (current) return { state: 'current' };
    // Not (yet) this trustee's link: a job of a transaction not yet committed retries; an old link is stale.
    const known = events.some((e) => e.type === 'TrusteeLinkIssued' && e.data.linkId === linkId);
    return { state: known ? 'stale' : 'unknown' };
  }

  /**
   * Signature, then the stream: a forged or altered link fails the signature, an expired one its
   * expiry, and a used, replaced or removed trustee's link or another owner's has no current match.
   * Every case gets the same answer.
   */
  private async verify(em: EntityManager, link: TrusteeLink): Promise<{ ownerId: string; trustee: TrusteesState['trustees'][string] }> {
    const verified = this.deps.links.verifyLink(TRUSTEE_LINK_PURPOSE, link.t, link, ['t', 'n']);
    if (typeof verified === 'string') throw new DomainError('TRUSTEE_LINK_INVALID');
    const state = await this.state(em, verified.userId);
    const trustee = trusteeByLink(state, link.t, hashLinkSecret(link.n), this.now());
    if (!trustee) throw new DomainError('TRUSTEE_LINK_INVALID');
    return { ownerId: verified.userId, trustee };
  }

  private async toView(ownerId: string, trustee: TrusteesState['trustees'][string], meta: RequestMeta, state?: TrusteesState): Promise<TrusteeView> {
    const open = (state ?? await this.state(this.deps.orm.em.fork(), ownerId)).openReport;
    const blocked = trustee.reportBlockedUntil && Date.parse(trustee.reportBlockedUntil) > Date.parse(this.now()) ? trustee.reportBlockedUntil : null;
    return {
      ownerName: await this.ownerName(ownerId, meta), trusteeName: trustee.details?.name ?? '', relationship: trustee.relationship, status: trustee.status,
      report: open?.trusteeId === trustee.trusteeId ? { kind: open.kind, reportedAt: open.reportedAt, vetoEndsAt: open.vetoEndsAt } : null,
      blockedUntil: blocked,
    };
  }

  /** identity's display name; without it (none set, or identity unreachable) the owner's address or a plain phrase: a name never stops an invitation. */
  private async ownerName(ownerId: string, meta: RequestMeta, fallback: string | null = null): Promise<string> {
    const name = await this.deps.ownerName(ownerId, meta).catch(() => null);
    return name || fallback || 'A Legacy Vault owner';
  }

  /** A new link: a random secret (kept as its hash) signed with the owner and the trustee, valid 14 days. */
  private mint(ownerId: string, trusteeId: string): MintedLink {
    const secret = randomBytes(24).toString('base64url');
    const { url, expiresAt } = this.deps.links.signLink(TRUSTEE_LINK_PURPOSE, '/trustee', ownerId, trusteeId, { t: trusteeId, n: secret });
    return { url, record: { linkId: randomUUID(), linkHash: hashLinkSecret(secret), expiresAt: new Date(expiresAt).toISOString() } };
  }

  /** Decides and appends; a link issued by the command has its e-mail job queued in the same transaction. */
  private async run(ownerId: string, command: TrusteesCommand, metadata: EventMetadata, meta: RequestMeta, link?: MintedLink, ownerEmail?: string | null): Promise<TrusteesState> {
    const name = link ? await this.ownerName(ownerId, meta, ownerEmail) : '';
    const result = await handleCommand(this.deps.orm.em, this.deps.store, trusteesDecider, command, {
      streamId: trusteesStreamId(ownerId), streamType: TRUSTEES_STREAM_TYPE, metadata,
      alsoInTransaction: async (em, events) => {
        for (const event of events) {
          if (event.type !== 'TrusteeLinkIssued' || !link || event.data.linkId !== link.record.linkId) continue;
          const trustee = command.type === 'AddTrustee' ? command.details : (await this.state(em, ownerId)).trustees[event.data.trusteeId]?.details;
          if (!trustee) continue;
          await enqueue(this.deps.mail, {
            linkId: event.data.linkId, ownerId, trusteeId: event.data.trusteeId, kind: event.data.kind, trusteeEmail: trustee.email, trusteeName: trustee.name,
            ownerName: name, expiresAt: event.data.expiresAt, sealedLink: sealForJob(this.deps.keyMailSecret, trusteeLinkSealContext(event.data.linkId), link.url),
          }, `trustee-link-${event.data.linkId}`);
        }
      },
    });
    return result.state;
  }

  private async state(em: EntityManager, ownerId: string): Promise<TrusteesState> {
    return (await aggregateStream(em, this.deps.store, trusteesDecider, trusteesStreamId(ownerId))).state;
  }

  /** The state and the events it was folded from (one owner's stream, small): the history reads the events. */
  private async stateAndEvents(em: EntityManager, ownerId: string): Promise<{ state: TrusteesState; events: TrusteesEvent[] }> {
    const { events } = await this.deps.store.readStream<TrusteesEvent>(em, trusteesStreamId(ownerId));
    return { state: foldEvents(trusteesDecider, events), events };
  }

  /** The owner's trustee, or NOT_FOUND (someone else's, or not an id at all). */
  private async trustee(ownerId: string, id: string): Promise<Trustee> {
    const trustee = isUuid(id) ? await findTrustee(this.deps.orm.em.fork(), ownerId, id.toLowerCase()) : null;
    if (!trustee) throw new DomainError('NOT_FOUND', TrusteeMessages.trusteeNotFound);
    return trustee;
  }

  private actor(ownerId: string, meta: RequestMeta): EventMetadata {
    return { actor: { kind: 'user', id: ownerId }, ...(meta.requestId ? { correlationId: meta.requestId } : {}) };
  }
}
