import { z } from 'zod';
import { queue, type JobOf } from './job-queue.js';
import { ALL_QUEUE_DECLARATIONS, ALL_QUEUES, Queues, type InactivityWarningJob, type SendKeyEmailJob, type TrusteeNoticeJob } from './queues.js';
import type { SealedText } from './sealed-text.schemas.js';
import type { ViewSection } from './access-keys.js';

/** Compile-time equality: `expectType<A, B>(true)` only type-checks when A and B are the same type. */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const expectType = <A, B>(_same: Same<A, B>) => undefined;

const sealed: SealedText = { alg: 'A256GCM', iv: 'aXY=', tag: 'dGFn', ct: 'Y3Q=' };
const keyEmail: SendKeyEmailJob = {
  keyId: 'a6c1e0f2-4b1e-4f5e-9b51-1f1e2d3c4b5a', ownerId: 'b7d2f1a3-5c2f-4a6f-8c62-2a2f3e4d5c6b', recipientEmail: 'kid@example.com', recipientName: null,
  sharedBy: 'dad@example.com', sealedKey: sealed, expiresAt: '2027-01-30T10:00:00.000Z', scopes: ['letters', 'timeline'],
};

describe('queue declarations', () => {
  it('type producers and workers from one declaration', () => {
    const probes = queue('probes', z.object({ id: z.string(), tries: z.number().default(1) }));
    expectType<JobOf<typeof probes>, { id: string; tries: number }>(true);
    expectType<SendKeyEmailJob['scopes'], ViewSection[]>(true);
    expectType<SendKeyEmailJob['sealedKey'], SealedText>(true);
    expectType<TrusteeNoticeJob['kind'], 'started' | 'released'>(true);
    // @ts-expect-error: a stage is a number, not a word
    expectType<InactivityWarningJob['stage'], string>(true);
    expect(probes).toEqual({ name: 'probes', payload: probes.payload });
  });

  it('refuses a name that is not lowercase words joined by hyphens (it becomes part of Redis keys)', () => {
    for (const name of ['', 'Key-Emails', 'key_emails', 'key:emails', 'key-emails-', '-key', 'key emails']) {
      expect(() => queue(name, z.object({}))).toThrow(/must be lowercase words joined by hyphens/);
    }
  });

  it('keeps every queue name the services work today, each declared once', () => {
    expect([...ALL_QUEUES].sort()).toEqual([
      'access-request-notices', 'account-emails', 'account-erasure', 'delivery-timing', 'inactivity-timing', 'inactivity-warnings', 'key-emails', 'media-hashing', 'media-transcoding', 'milestone-release', 'scheduled-backups', 'trustee-links', 'trustee-notices', 'trustee-report-notices',
    ]);
    expect(ALL_QUEUE_DECLARATIONS).toEqual(Object.values(Queues));
  });

  it('pass a job as its producer writes it and refuse one that breaks the declared shape', () => {
    const { payload } = Queues.KeyEmails;
    expect(payload.parse({ ...keyEmail, oneLetter: true })).toEqual({ ...keyEmail, oneLetter: true });
    expect(payload.safeParse({ ...keyEmail, scopes: ['letters', 'diary'] }).success).toBe(false);
    expect(payload.safeParse({ ...keyEmail, sealedKey: { ...sealed, alg: 'none' } }).success).toBe(false);
    expect(payload.safeParse({ ...keyEmail, expiresAt: 'next week' }).success).toBe(false);
    expect(payload.safeParse({ ...keyEmail, oneLetter: false }).success).toBe(false);
    const { keyId: _keyId, ...withoutKeyId } = keyEmail;
    expect(payload.safeParse(withoutKeyId).success).toBe(false);

    const notice = { noticeId: 'r1-started', releaseId: 'r1', ownerId: 'o1', kind: 'started', trusteeEmail: 't@example.com', trusteeName: null, sharedBy: 'o@example.com', dueAt: null };
    expect(Queues.TrusteeNotices.payload.safeParse(notice).success).toBe(true);
    expect(Queues.TrusteeNotices.payload.safeParse({ ...notice, kind: 'cancelled' }).success).toBe(false);
    expect(Queues.InactivityWarnings.payload.safeParse({ warningId: 'w1', ownerId: 'o1', ownerEmail: 'o@example.com', stage: 1.5, lapseAt: '2027-01-30T10:00:00.000Z', sealedLink: sealed }).success).toBe(false);
  });

  it('carry an account e-mail of each kind identity sends, the new account\'s verification link among them, and no other', () => {
    const verify = {
      emailId: 'a6c1e0f2-4b1e-4f5e-9b51-1f1e2d3c4b5a', userId: 'b7d2f1a3-5c2f-4a6f-8c62-2a2f3e4d5c6b', kind: 'verify-email', to: 'dad@example.com',
      at: '2026-12-07T10:00:00.000Z', expiresAt: '2026-12-08T10:00:00.000Z', sealedLink: sealed,
    };
    expect(Queues.AccountEmails.payload.parse(verify)).toEqual(verify);
    expect(Queues.AccountEmails.payload.shape.kind.options).toEqual(
      ['password-reset', 'password-changed', 'email-change-confirm', 'email-change-notice', 'new-sign-in', 'verify-email', 'account-deletion-scheduled'],
    );
    expect(Queues.AccountEmails.payload.safeParse({ ...verify, kind: 'verify-address' }).success).toBe(false);
  });
});
