import { deciderSpecification } from '@lv/testing';
import { TRUSTEES_MAX } from '@lv/contracts';
import { deliveryDecider, type DeliveryEvent } from '../if-im-not-there/delivery-release.decider.js';
import { reminderTimes, reportHistory, trusteeByLink, trusteesDecider, type TrusteeLinkRecord, type TrusteesCommand, type TrusteesEvent } from './trustees.decider.js';

const spec = deciderSpecification(trusteesDecider);
const ownerId = '6f1c9a52-3a8e-4d52-9a55-0f7f3b1f8c11';
const t1 = 'a1b2c3d4-0000-4000-8000-000000000001';
const t2 = 'a1b2c3d4-0000-4000-8000-000000000002';
const t0 = '2026-12-06T10:00:00.000Z';
const DAY = 24 * 3600 * 1000;
const at = (days: number) => new Date(Date.parse(t0) + days * DAY).toISOString();
const link = (n: number): TrusteeLinkRecord => ({ linkId: `b0000000-0000-4000-8000-00000000000${n}`, linkHash: `hash-${n}`, expiresAt: at(14) });
const sister = { name: 'Ann', email: 'ann@example.com' };

const add = (trusteeId = t1, details = sister, n = 1): TrusteesCommand => ({ type: 'AddTrustee', ownerId, trusteeId, relationship: 'My Sibling', details, link: link(n), now: t0 });
const named = (trusteeId = t1, details = sister): TrusteesEvent => ({ type: 'TrusteeNamed', data: { trusteeId, ownerId, relationship: 'My Sibling', namedAt: t0, legacy: false, personal: details } });
const issued = (trusteeId = t1, n = 1, kind: 'invitation' | 'link' = 'invitation', issuedAt = t0): TrusteesEvent => ({
  type: 'TrusteeLinkIssued', data: { trusteeId, ownerId, kind, issuedAt, ...link(n) },
});
const answer = (answer: 'accept' | 'decline', linkHash = 'hash-1', now = at(1), trusteeId = t1): TrusteesCommand => ({ type: 'AnswerInvitation', ownerId, trusteeId, linkHash, answer, now });
const accepted: TrusteesEvent = { type: 'TrusteeAccepted', data: { trusteeId: t1, ownerId, linkId: link(1).linkId, acceptedAt: at(1) } };
const invited = [named(), issued()];

describe('trustees decider', () => {
  it('names a trustee and invites them in one step; the same add again records nothing', () => {
    spec.given([]).when(add()).then(invited);
    spec.given(invited).when(add()).then([]);
    spec.given(invited).when(add(t1, { ...sister, name: 'Anne' })).thenThrows('CONFLICT');
  });

  it(`keeps at most ${TRUSTEES_MAX} trustees, each address once; a removed one frees the slot`, () => {
    const five = Array.from({ length: TRUSTEES_MAX }, (_, i) => named(`a1b2c3d4-0000-4000-8000-00000000001${i}`, { name: `T${i}`, email: `t${i}@example.com` }));
    spec.given(five).when(add(t2, { name: 'Six', email: 'six@example.com' })).thenThrows('VALIDATION_FAILED');
    const removed: TrusteesEvent = { type: 'TrusteeRemoved', data: { trusteeId: five[0]!.data.trusteeId, ownerId, removedAt: t0 } };
    spec.given([...five, removed]).when(add(t2, { name: 'Six', email: 'six@example.com' })).then([named(t2, { name: 'Six', email: 'six@example.com' }), issued(t2)]);
    spec.given(invited).when(add(t2, { name: 'Ann again', email: 'ann@example.com' })).thenThrows('VALIDATION_FAILED');
  });

  it('an invitation link accepts or declines once; the answer uses it up', () => {
    spec.given(invited).when(answer('accept')).then([accepted]);
    spec.given(invited).when(answer('decline')).then([{ type: 'TrusteeDeclined', data: { trusteeId: t1, ownerId, linkId: link(1).linkId, declinedAt: at(1) } }]);
    spec.given([...invited, accepted]).when(answer('accept')).thenThrows('TRUSTEE_LINK_INVALID');
    spec.given([...invited, accepted]).when(answer('decline')).thenThrows('TRUSTEE_LINK_INVALID');
  });

  it('refuses alike a link altered, expired, replaced by a resend, of a removed trustee or of another trustee', () => {
    spec.given(invited).when(answer('accept', 'hash-9')).thenThrows('TRUSTEE_LINK_INVALID');
    spec.given(invited).when(answer('accept', 'hash-1', at(14))).thenThrows('TRUSTEE_LINK_INVALID');
    spec.given([...invited, issued(t1, 2, 'invitation', at(2))]).when(answer('accept', 'hash-1', at(3))).thenThrows('TRUSTEE_LINK_INVALID');
    spec.given([...invited, issued(t1, 2, 'invitation', at(2))]).when(answer('accept', 'hash-2', at(3))).then([{ ...accepted, data: { ...accepted.data, linkId: link(2).linkId, acceptedAt: at(3) } }]);
    spec.given([...invited, { type: 'TrusteeRemoved', data: { trusteeId: t1, ownerId, removedAt: at(1) } }]).when(answer('accept', 'hash-1', at(1))).thenThrows('TRUSTEE_LINK_INVALID');
    spec.given([...invited, named(t2, { name: 'Bo', email: 'bo@example.com' }), issued(t2, 2)]).when(answer('accept', 'hash-1', at(1), t2)).thenThrows('TRUSTEE_LINK_INVALID');
  });

  it('resends only to someone who has not answered; removal ends the link at once', () => {
    spec.given(invited).when({ type: 'InviteTrustee', ownerId, trusteeId: t1, link: link(2), now: at(2) }).then([issued(t1, 2, 'invitation', at(2))]);
    spec.given([...invited, accepted]).when({ type: 'InviteTrustee', ownerId, trusteeId: t1, link: link(2), now: at(2) }).thenThrows('CONFLICT');
    spec.given([]).when({ type: 'InviteTrustee', ownerId, trusteeId: t1, link: link(2), now: at(2) }).thenThrows('NOT_FOUND');
    spec.given(invited).when({ type: 'RemoveTrustee', ownerId, trusteeId: t1, now: at(1) }).then([{ type: 'TrusteeRemoved', data: { trusteeId: t1, ownerId, removedAt: at(1) } }]);
    spec.given([...invited, { type: 'TrusteeRemoved', data: { trusteeId: t1, ownerId, removedAt: at(1) } }]).when({ type: 'RemoveTrustee', ownerId, trusteeId: t1, now: at(2) }).thenThrows('NOT_FOUND');
    const state = [...invited, { type: 'TrusteeRemoved', data: { trusteeId: t1, ownerId, removedAt: at(1) } } as TrusteesEvent].reduce(trusteesDecider.evolve, trusteesDecider.initialState());
    expect(trusteeByLink(state, t1, 'hash-1', at(1))).toBeNull();
  });

  it('"send me my link" mails a new one to an invited or accepted trustee only', () => {
    const issue: TrusteesCommand = { type: 'IssueTrusteeLink', ownerId, trusteeId: t1, link: link(3), now: at(2) };
    spec.given(invited).when(issue).then([issued(t1, 3, 'invitation', at(2))]);
    spec.given([...invited, accepted]).when(issue).then([issued(t1, 3, 'link', at(2))]);
    spec.given([...invited, { type: 'TrusteeDeclined', data: { trusteeId: t1, ownerId, linkId: link(1).linkId, declinedAt: at(1) } }]).when(issue).then([]);
    spec.given([]).when(issue).then([]);
  });

  it("adopts the delivery settings' single trustee into an empty list only, not yet invited", () => {
    const adopt: TrusteesCommand = { type: 'AdoptLegacyTrustee', ownerId, trusteeId: t1, details: sister, now: t0 };
    spec.given([]).when(adopt).then([{ type: 'TrusteeNamed', data: { trusteeId: t1, ownerId, relationship: 'Other', namedAt: t0, legacy: true, personal: sister } }]);
    spec.given([named(t2, { name: 'Bo', email: 'bo@example.com' })]).when(adopt).then([]);
    spec.given([named(t2), { type: 'TrusteeRemoved', data: { trusteeId: t2, ownerId, removedAt: t0 } }]).when(adopt).then([]);
  });

  describe('reports and the owner\'s veto', () => {
    const report = 'c0000000-0000-4000-8000-000000000001';
    const acceptedWithLink = [...invited, accepted, issued(t1, 2, 'link', at(2))];
    const reportCmd = (now = at(3), linkHash = 'hash-2', vetoEndsAt = at(6)): TrusteesCommand => ({
      type: 'ReportOwner', ownerId, trusteeId: t1, linkHash, reportId: report, kind: 'died', note: 'In hospital since Monday', vetoEndsAt, now,
    });
    const reported: TrusteesEvent = {
      type: 'TrusteeReported', data: { reportId: report, trusteeId: t1, ownerId, kind: 'died', reportedAt: at(3), vetoEndsAt: at(6), personal: { note: 'In hospital since Monday' } },
    };
    const vetoed: TrusteesEvent = { type: 'TrusteeReportVetoed', data: { reportId: report, trusteeId: t1, ownerId, vetoedAt: at(4), blockedUntil: at(34) } };

    it('an accepted trustee with a current link reports; a second report while one is open adds nothing', () => {
      spec.given(acceptedWithLink).when(reportCmd()).then([reported]);
      spec.given([...acceptedWithLink, reported]).when(reportCmd(at(3))).then([]);
    });

    it('an unaccepted, declined or removed trustee, or a bad link, cannot report', () => {
      spec.given(invited).when(reportCmd(at(1), 'hash-1')).thenThrows('TRUSTEE_NOT_ACCEPTED');
      spec.given(acceptedWithLink).when(reportCmd(at(3), 'hash-9')).thenThrows('TRUSTEE_LINK_INVALID');
      const removed: TrusteesEvent = { type: 'TrusteeRemoved', data: { trusteeId: t1, ownerId, removedAt: at(2) } };
      spec.given([...acceptedWithLink, removed]).when(reportCmd()).thenThrows('TRUSTEE_LINK_INVALID');
      spec.given(acceptedWithLink).when(reportCmd(at(20))).thenThrows('TRUSTEE_LINK_INVALID');
    });

    it('the owner vetoes the open report; its reporter is blocked 30 days, then may report again', () => {
      spec.given([...acceptedWithLink, reported]).when({ type: 'CloseReport', ownerId, reason: 'veto', at: at(4), now: at(4) }).then([{ ...vetoed, data: { ...vetoed.data, reason: 'veto' } } as TrusteesEvent]);
      spec.given(acceptedWithLink).when({ type: 'CloseReport', ownerId, reason: 'veto', at: at(4), now: at(4) }).then([]);
      spec.given([...acceptedWithLink, reported, vetoed]).when({ type: 'CloseReport', ownerId, reason: 'veto', at: at(5), now: at(5) }).then([]);
      spec.given([...acceptedWithLink, reported, vetoed]).when(reportCmd(at(5))).thenThrows('TRUSTEE_REPORT_BLOCKED');
      const fresh: TrusteesEvent = { type: 'TrusteeLinkIssued', data: { trusteeId: t1, ownerId, kind: 'link', issuedAt: at(33), ...link(3), expiresAt: at(47) } };
      spec.given([...acceptedWithLink, reported, vetoed, fresh]).when(reportCmd(at(33.9), 'hash-3')).thenThrows('TRUSTEE_REPORT_BLOCKED');
      spec.given([...acceptedWithLink, reported, vetoed, fresh]).when(reportCmd(at(34), 'hash-3', at(37)))
        .then([{ ...reported, data: { ...reported.data, reportedAt: at(34), vetoEndsAt: at(37) } } as TrusteesEvent]);
    });
      const close = (reason: 'veto' | 'sign-in' | 'check-in', when: string): TrusteesCommand => ({ type: 'CloseReport', ownerId, reason, at: when, now: when });
    const closedBy = (reason: 'veto' | 'sign-in' | 'check-in', when: string): TrusteesEvent => ({
      type: 'TrusteeReportVetoed', data: { reportId: report, trusteeId: t1, ownerId, vetoedAt: when, blockedUntil: new Date(Date.parse(when) + 30 * DAY).toISOString(), reason },
    });

    it('any sign of life after the report closes it, as one event with its reason: a sign-in, a check-in or the veto', () => {
      for (const reason of ['sign-in', 'check-in', 'veto'] as const) {
        spec.given([...acceptedWithLink, reported]).when(close(reason, at(3.5))).then([closedBy(reason, at(3.5))]);
        // Once closed, a second sign of life adds nothing.
        spec.given([...acceptedWithLink, reported, closedBy(reason, at(3.5))]).when(close('sign-in', at(4))).then([]);
      }
    });

    it('a sign-in from before the report (its event delivered late) does not close it', () => {
      spec.given([...acceptedWithLink, reported]).when({ type: 'CloseReport', ownerId, reason: 'sign-in', at: at(2.9), now: at(3.1) }).then([]);
      spec.given([...acceptedWithLink, reported]).when({ type: 'CloseReport', ownerId, reason: 'sign-in', at: at(3), now: at(3.1) }).then([]);
    });

    it('a closed report leaves the trustee blocked and the next report by another trustee opens anew', () => {
      const t2Accepted: TrusteesEvent[] = [named(t2, { name: 'Bo', email: 'bo@example.com' }), issued(t2, 4), { type: 'TrusteeAccepted', data: { trusteeId: t2, ownerId, linkId: link(4).linkId, acceptedAt: at(1) } }, issued(t2, 5, 'link', at(2))];
      const history = [...acceptedWithLink, ...t2Accepted, reported, closedBy('sign-in', at(3.5))];
      spec.given(history).when(reportCmd(at(4))).thenThrows('TRUSTEE_REPORT_BLOCKED');
      const second: TrusteesCommand = { type: 'ReportOwner', ownerId, trusteeId: t2, linkHash: 'hash-5', reportId: 'c0000000-0000-4000-8000-000000000002', kind: 'incapacitated', note: '', vetoEndsAt: at(7), now: at(4) };
      spec.given(history).when(second).then([{
        type: 'TrusteeReported', data: { reportId: 'c0000000-0000-4000-8000-000000000002', trusteeId: t2, ownerId, kind: 'incapacitated', reportedAt: at(4), vetoEndsAt: at(7), personal: { note: '' } },
      }]);
    });

    it('no release after a close: the delivery the report started is cancelled with it, and its due job then releases nothing', () => {
      const deliveries = deciderSpecification(deliveryDecider);
      const releaseId = 'd0000000-0000-4000-8000-000000000001';
      const triggered: DeliveryEvent = {
        type: 'DeliveryTriggered', data: { releaseId, ownerId, trigger: 'trustee-report', timing: 'immediately', needsVerification: false, dueAt: at(6), triggeredAt: at(3), notBefore: at(6) },
      };
      const cancelled: DeliveryEvent = { type: 'DeliveryCancelled', data: { releaseId, ownerId, cancelledAt: at(3.5) } };
      deliveries.given([triggered]).when({ type: 'CancelDelivery', ownerId, now: at(3.5) }).then([cancelled]);
      deliveries.given([triggered, cancelled]).when({ type: 'ReleaseDelivery', ownerId, releaseId, keyIds: [], now: at(6) }).then([]);
      deliveries.given([triggered, cancelled]).when({ type: 'ReleaseDelivery', ownerId, releaseId, keyIds: [], now: at(60) }).then([]);
      // And never before the window ends while it is open.
      deliveries.given([triggered]).when({ type: 'ReleaseDelivery', ownerId, releaseId, keyIds: [], now: at(5.9) }).thenThrows('CONFLICT');
    });

    it('reminds the owner halfway and 24 hours before the window ends (the last only when it comes after halfway)', () => {
      expect(reminderTimes(t0, new Date(Date.parse(t0) + 72 * 3600_000).toISOString())).toEqual([
        new Date(Date.parse(t0) + 36 * 3600_000).toISOString(), new Date(Date.parse(t0) + 48 * 3600_000).toISOString(),
      ]);
      expect(reminderTimes(t0, new Date(Date.parse(t0) + 10_000).toISOString())).toEqual([new Date(Date.parse(t0) + 5000).toISOString()]);
    });

    it("the owner's history lists every report newest first with how it ended", () => {
      const second: TrusteesEvent = { type: 'TrusteeReported', data: { ...reported.data, reportId: 'c0000000-0000-4000-8000-000000000002', reportedAt: at(40), vetoEndsAt: at(43) } };
      expect(reportHistory([...acceptedWithLink, reported, vetoed, second])).toEqual([
        { reportId: 'c0000000-0000-4000-8000-000000000002', trusteeId: t1, kind: 'died', reportedAt: at(40), vetoEndsAt: at(43), closedAt: null, closedBy: null },
        { reportId: report, trusteeId: t1, kind: 'died', reportedAt: at(3), vetoEndsAt: at(6), closedAt: at(4), closedBy: 'veto' },
      ]);
      expect(reportHistory([reported, closedBy('check-in', at(3.2))])[0]).toMatchObject({ closedAt: at(3.2), closedBy: 'check-in' });
    });
  });
});
