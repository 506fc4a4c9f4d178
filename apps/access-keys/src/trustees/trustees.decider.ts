import {
  TRUSTEE_REPORT_BLOCK_DAYS, TRUSTEE_REPORT_LAST_REMINDER_HOURS, TRUSTEES_MAX, TrusteeMessages, type Relationship, type TrusteeReportCloseReason, type TrusteeReportKind, type TrusteeStatus,
} from '@lv/contracts';
import { DomainError, validationError } from '@lv/platform/errors';
import type { Decider } from '@lv/platform/event-store';

/** Who a trustee is: sealed in the event store under the owner's key (personal-sealing.ts). */
export interface TrusteeDetails {
  name: string;
  email: string;
}

/** A link as the stream keeps it: its id, the SHA-256 of its secret part, and when it stops working. */
export interface TrusteeLinkRecord {
  linkId: string;
  linkHash: string;
  expiresAt: string;
}

/**
 * An owner's trustees: one stream per owner, `trustees-{ownerId}`, so the limit of five, the unique
 * addresses and (later) the quorum are decided on one version. Each trustee holds at most one live
 * link: a new one replaces it, an answer uses it up, removal ends it.
 */
export type TrusteesEvent =
  | { type: 'TrusteeNamed'; data: { trusteeId: string; ownerId: string; relationship: Relationship; namedAt: string; legacy: boolean; personal: TrusteeDetails | null } }
  | { type: 'TrusteeLinkIssued'; data: { trusteeId: string; ownerId: string; kind: 'invitation' | 'link'; issuedAt: string } & TrusteeLinkRecord }
  | { type: 'TrusteeAccepted'; data: { trusteeId: string; ownerId: string; linkId: string; acceptedAt: string } }
  | { type: 'TrusteeDeclined'; data: { trusteeId: string; ownerId: string; linkId: string; declinedAt: string } }
  | { type: 'TrusteeRemoved'; data: { trusteeId: string; ownerId: string; removedAt: string } }
  /** An accepted trustee's report; the note is sealed like names. Nothing is released before `vetoEndsAt`. */
  | { type: 'TrusteeReported'; data: { reportId: string; trusteeId: string; ownerId: string; kind: TrusteeReportKind; reportedAt: string; vetoEndsAt: string; personal: { note: string } } }
  /**
   * A sign of life from the owner ends the report: his "I'm still here" (`veto`), a sign-in or a check-in
   * after it was made (`reason`; absent in older events: a veto). Its reporter may not report again for 30 days.
   */
  | { type: 'TrusteeReportVetoed'; data: { reportId: string; trusteeId: string; ownerId: string; vetoedAt: string; blockedUntil: string; reason?: TrusteeReportCloseReason } };

/** The report under way: one at a time per owner (a second trustee's report while one is open adds nothing). */
export interface OpenReport {
  reportId: string;
  trusteeId: string;
  kind: TrusteeReportKind;
  note: string;
  reportedAt: string;
  vetoEndsAt: string;
}

export interface TrusteeState {
  trusteeId: string;
  relationship: Relationship;
  details: TrusteeDetails | null;
  status: TrusteeStatus;
  link: TrusteeLinkRecord | null;
  /** After the owner vetoed their report: no new report before this. */
  reportBlockedUntil?: string | null;
}

export interface TrusteesState {
  ownerId: string | null;
  trustees: Record<string, TrusteeState>;
  /** Whether anyone was ever named (the settings' single trustee is adopted only into an empty list). */
  everNamed: boolean;
  openReport?: OpenReport | null;
}

export type TrusteesCommand =
  | { type: 'AdoptLegacyTrustee'; ownerId: string; trusteeId: string; details: TrusteeDetails; now: string }
  | { type: 'AddTrustee'; ownerId: string; trusteeId: string; relationship: Relationship; details: TrusteeDetails; link: TrusteeLinkRecord; now: string }
  | { type: 'InviteTrustee'; ownerId: string; trusteeId: string; link: TrusteeLinkRecord; now: string }
  | { type: 'RemoveTrustee'; ownerId: string; trusteeId: string; now: string }
  | { type: 'AnswerInvitation'; ownerId: string; trusteeId: string; linkHash: string; answer: 'accept' | 'decline'; now: string }
  | { type: 'IssueTrusteeLink'; ownerId: string; trusteeId: string; link: TrusteeLinkRecord; now: string }
  | { type: 'ReportOwner'; ownerId: string; trusteeId: string; linkHash: string; reportId: string; kind: TrusteeReportKind; note: string; vetoEndsAt: string; now: string }
  /** A sign of life: `at` is when it happened (a sign-in consumed late still counts only if it came after the report). */
  | { type: 'CloseReport'; ownerId: string; reason: TrusteeReportCloseReason; at: string; now: string };

export const TRUSTEES_STREAM_TYPE = 'trustees';
export const trusteesStreamId = (ownerId: string) => `trustees-${ownerId}`;

/** Still in the owner's list and counted against the limit (a declined trustee keeps a slot until removed). */
const listed = (t: TrusteeState) => t.status !== 'removed';
const notFound = () => new DomainError('NOT_FOUND', TrusteeMessages.trusteeNotFound);
const linkInvalid = () => new DomainError('TRUSTEE_LINK_INVALID');

/**
 * The trustee whose current link has this hash and has not expired, or null: a link replaced, used,
 * expired or of a removed trustee is no link at all (the signature was checked before, outside).
 */
export function trusteeByLink(state: TrusteesState, trusteeId: string, linkHash: string, now: string): TrusteeState | null {
  const trustee = state.trustees[trusteeId];
  if (!trustee || trustee.status === 'removed' || !trustee.link) return null;
  if (trustee.link.linkHash !== linkHash || Date.parse(trustee.link.expiresAt) <= Date.parse(now)) return null;
  return trustee;
}

export const trusteesDecider: Decider<TrusteesState, TrusteesCommand, TrusteesEvent> = {
  initialState: () => ({ ownerId: null, trustees: {}, everNamed: false }),

  decide(command, state) {
    const { ownerId, now } = command;
    const trusteeId = 'trusteeId' in command ? command.trusteeId : '';
    const trustee = state.trustees[trusteeId];
    switch (command.type) {
      case 'AdoptLegacyTrustee':
        if (state.everNamed) return [];
        return [{ type: 'TrusteeNamed', data: { trusteeId, ownerId, relationship: 'Other', namedAt: now, legacy: true, personal: command.details } }];
      case 'AddTrustee': {
        if (trustee) {
          // The same add again (a retried click) records nothing; anything else under this id is refused.
          if (listed(trustee) && trustee.relationship === command.relationship && trustee.details?.name === command.details.name && trustee.details.email === command.details.email) return [];
          throw new DomainError('CONFLICT', 'This trustee id is already in use.');
        }
        const others = Object.values(state.trustees).filter(listed);
        if (others.length >= TRUSTEES_MAX) throw validationError({ trustees: TrusteeMessages.tooManyTrustees }, TrusteeMessages.tooManyTrustees);
        if (others.some((t) => t.details?.email === command.details.email)) throw validationError({ email: TrusteeMessages.duplicateEmail }, TrusteeMessages.duplicateEmail);
        return [
          { type: 'TrusteeNamed', data: { trusteeId, ownerId, relationship: command.relationship, namedAt: now, legacy: false, personal: command.details } },
          { type: 'TrusteeLinkIssued', data: { trusteeId, ownerId, kind: 'invitation', issuedAt: now, ...command.link } },
        ];
      }
      case 'InviteTrustee':
        if (!trustee || !listed(trustee)) throw notFound();
        // Only someone who has not answered is (re)invited; the new link replaces the old one.
        if (trustee.status !== 'named' && trustee.status !== 'invited') throw new DomainError('CONFLICT', TrusteeMessages.cannotResend);
        return [{ type: 'TrusteeLinkIssued', data: { trusteeId, ownerId, kind: 'invitation', issuedAt: now, ...command.link } }];
      case 'RemoveTrustee':
        if (!trustee || !listed(trustee)) throw notFound();
        return [{ type: 'TrusteeRemoved', data: { trusteeId, ownerId, removedAt: now } }];
      case 'AnswerInvitation': {
        const current = trusteeByLink(state, trusteeId, command.linkHash, now);
        // An answer needs a live invitation link: every other case gets the one answer for bad links.
        if (!current || current.status !== 'invited') throw linkInvalid();
        const linkId = current.link!.linkId;
        return command.answer === 'accept'
          ? [{ type: 'TrusteeAccepted', data: { trusteeId, ownerId, linkId, acceptedAt: now } }]
          : [{ type: 'TrusteeDeclined', data: { trusteeId, ownerId, linkId, declinedAt: now } }];
      }
      case 'IssueTrusteeLink':
        // "Send me my link": only someone invited (again their invitation) or accepted gets one.
        if (!trustee || (trustee.status !== 'invited' && trustee.status !== 'accepted')) return [];
        return [{ type: 'TrusteeLinkIssued', data: { trusteeId, ownerId, kind: trustee.status === 'invited' ? 'invitation' : 'link', issuedAt: now, ...command.link } }];
      case 'ReportOwner': {
        // The link stays usable (the trustee's page shows the report); a removed trustee has none.
        const current = trusteeByLink(state, trusteeId, command.linkHash, now);
        if (!current) throw linkInvalid();
        if (current.status !== 'accepted') throw new DomainError('TRUSTEE_NOT_ACCEPTED');
        if (current.reportBlockedUntil && Date.parse(now) < Date.parse(current.reportBlockedUntil)) throw new DomainError('TRUSTEE_REPORT_BLOCKED');
        // One report at a time: the first one's window runs; a second (or a retry) adds nothing.
        if (state.openReport) return [];
        return [{
          type: 'TrusteeReported',
          data: { reportId: command.reportId, trusteeId, ownerId, kind: command.kind, reportedAt: now, vetoEndsAt: command.vetoEndsAt, personal: { note: command.note } },
        }];
      }
      case 'CloseReport': {
        const open = state.openReport;
        // Nothing open, or a sign of life from before the report (a sign-in event delivered late): nothing ends.
        if (!open || Date.parse(command.at) <= Date.parse(open.reportedAt)) return [];
        const blockedUntil = new Date(Date.parse(now) + TRUSTEE_REPORT_BLOCK_DAYS * 24 * 3600 * 1000).toISOString();
        return [{ type: 'TrusteeReportVetoed', data: { reportId: open.reportId, trusteeId: open.trusteeId, ownerId, vetoedAt: now, blockedUntil, reason: command.reason } }];
      }
    }
  },

  evolve(state, event) {
    const d = event.data;
    const put = (patch: Partial<TrusteeState>): TrusteesState => {
      const before = state.trustees[d.trusteeId];
      if (!before) return state;
      return { ...state, trustees: { ...state.trustees, [d.trusteeId]: { ...before, ...patch } } };
    };
    switch (event.type) {
      case 'TrusteeNamed': {
        const named: TrusteeState = { trusteeId: d.trusteeId, relationship: event.data.relationship, details: event.data.personal, status: 'named', link: null };
        return { ownerId: d.ownerId, everNamed: true, trustees: { ...state.trustees, [d.trusteeId]: named } };
      }
      case 'TrusteeLinkIssued': {
        const { linkId, linkHash, expiresAt } = event.data;
        const status = state.trustees[d.trusteeId]?.status === 'named' ? 'invited' : state.trustees[d.trusteeId]?.status;
        return put({ link: { linkId, linkHash, expiresAt }, ...(status ? { status } : {}) });
      }
      case 'TrusteeAccepted':
        return put({ status: 'accepted', link: null });
      case 'TrusteeDeclined':
        return put({ status: 'declined', link: null });
      case 'TrusteeRemoved':
        return put({ status: 'removed', link: null });
      case 'TrusteeReported': {
        const { reportId, trusteeId, kind, reportedAt, vetoEndsAt } = event.data;
        return { ...state, openReport: { reportId, trusteeId, kind, note: event.data.personal?.note ?? '', reportedAt, vetoEndsAt } };
      }
      case 'TrusteeReportVetoed':
        return { ...put({ reportBlockedUntil: event.data.blockedUntil }), openReport: null };
    }
  },
};

/** When the owner is reminded during a report's veto window: halfway, and 24 hours before it ends when that is later. */
export function reminderTimes(reportedAt: string, vetoEndsAt: string): string[] {
  const start = Date.parse(reportedAt);
  const end = Date.parse(vetoEndsAt);
  const halfway = start + (end - start) / 2;
  const last = end - TRUSTEE_REPORT_LAST_REMINDER_HOURS * 3600 * 1000;
  return (last > halfway ? [halfway, last] : [halfway]).map((t) => new Date(t).toISOString());
}

/** One report as the owner's history shows it (the trustee's name is added from the state by the caller). */
export interface ReportRecord {
  reportId: string;
  trusteeId: string;
  kind: TrusteeReportKind;
  reportedAt: string;
  vetoEndsAt: string;
  closedAt: string | null;
  closedBy: TrusteeReportCloseReason | null;
}

/** Every report in the stream, newest first, with how it ended. */
export function reportHistory(events: readonly TrusteesEvent[]): ReportRecord[] {
  const reports: ReportRecord[] = [];
  for (const event of events) {
    if (event.type === 'TrusteeReported') {
      const { reportId, trusteeId, kind, reportedAt, vetoEndsAt } = event.data;
      reports.push({ reportId, trusteeId, kind, reportedAt, vetoEndsAt, closedAt: null, closedBy: null });
    } else if (event.type === 'TrusteeReportVetoed') {
      const report = reports.find((r) => r.reportId === event.data.reportId);
      if (report) Object.assign(report, { closedAt: event.data.vetoedAt, closedBy: event.data.reason ?? 'veto' });
    }
  }
  return reports.reverse();
}
