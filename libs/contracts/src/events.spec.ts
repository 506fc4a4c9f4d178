import { z } from 'zod';
import { event, published, receiveEvent, type EventData, type EventDeclaration, type ReceivedEvent } from './events.js';
import type { PublishedEvent } from './envelopes.js';
import { AccessKeysEvents } from './access-keys.messaging.js';
import { BillingEvents } from './billing.messaging.js';
import { CourtJournalEvents } from './court-journal.messaging.js';
import { IdentityEvents } from './identity.messaging.js';
import { LettersEvents, type LetterWrittenV1 } from './letters.messaging.js';
import { VaultMediaEvents } from './media.messaging.js';
import { NotificationsEvents } from './notifications.messaging.js';

/** Compile-time equality: `expectType<A, B>(true)` only type-checks when A and B are the same type. */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const expectType = <A, B>(_same: Same<A, B>) => undefined;

const envelope = (data: unknown): PublishedEvent => ({
  eventId: '6f1c4a52-9d3e-4a8b-8f00-2b1f8d0c7e11', type: 'Test', streamId: 's-1', version: 1, occurredAt: '2026-01-01T00:00:00.000Z', data, metadata: {},
});

describe('event declarations', () => {
  it('derive the published types from their schemas', () => {
    expectType<LetterWrittenV1, { letterId: string; ownerId: string; wordCount: number; writtenAt: string }>(true);
    expectType<EventData<typeof BillingEvents.SubscriptionEnded>, { ownerId: string; tier: 'none' | 'essentials' | 'pro' | 'legacy'; endedAt: string }>(true);
    // @ts-expect-error: the declaration says what the data is, nothing looser
    expectType<LetterWrittenV1, { letterId: string }>(true);
  });

  it('type a publisher by the declaration: a field the schema does not name (a letter\'s words) does not compile', () => {
    const data = { letterId: 'l', ownerId: 'o', wordCount: 3, writtenAt: '2026-01-01T00:00:00.000Z' };
    expect(published(LettersEvents.LetterWritten, data)).toEqual({ subject: 'letters.letter.written.v1', data });
    // @ts-expect-error: the title never leaves the letters service
    published(LettersEvents.LetterWritten, { ...data, title: 'Dear Ann' });
  });

  it('refuses a subject outside <service>.<aggregate>.<event>.v<n>', () => {
    for (const subject of ['letters.written', 'letters.letter.written', 'letters.letter.written.v0', 'rpc.letters.letter.v1', 'Letters.letter.written.v1', 'letters.letter.>', '']) {
      expect(() => event(subject, z.object({}))).toThrow(/must look like <service>\.<aggregate>\.<event>\.v<n>/);
    }
  });

  it('keeps every subject string the services publish today, each declared once and inside its service', () => {
    const registries: Record<string, Record<string, EventDeclaration>> = {
      identity: IdentityEvents, letters: LettersEvents, 'vault-media': VaultMediaEvents, 'court-journal': CourtJournalEvents,
      'access-keys': AccessKeysEvents, notifications: NotificationsEvents, billing: BillingEvents,
    };
    const subjects = Object.entries(registries).flatMap(([service, registry]) => Object.values(registry).map((d) => {
      expect(d.subject.startsWith(`${service}.`)).toBe(true);
      expect(d.data).toBeInstanceOf(z.ZodType);
      return d.subject;
    }));
    expect(new Set(subjects).size).toBe(subjects.length);
    expect(subjects.sort()).toEqual([
      'access-keys.key.issued.v1', 'access-keys.key.revoked.v1', 'access-keys.request.approved.v1', 'access-keys.request.declined.v1', 'access-keys.request.submitted.v1',
      'access-keys.view-session.closed.v1', 'access-keys.view-session.opened.v1', 'access-keys.view-session.revoked.v1',
      'billing.subscription.activated.v1', 'billing.subscription.cancel-requested.v1', 'billing.subscription.checkout-started.v1', 'billing.subscription.ended.v1', 'billing.subscription.renewed.v1',
      'court-journal.document.deleted.v1', 'court-journal.document.key-evidence-changed.v1', 'court-journal.document.uploaded.v1', 'court-journal.evidence.head-signed.v1',
      'identity.user.account-erased.v1', 'identity.user.admin-granted.v1', 'identity.user.admin-revoked.v1', 'identity.user.email-changed.v1', 'identity.user.notification-preferences-changed.v1',
      'identity.user.password-changed.v1', 'identity.user.profile-updated.v1', 'identity.user.registered.v1', 'identity.user.signed-in.v1', 'identity.user.tier-changed.v1',
      'letters.letter.deleted.v1', 'letters.letter.revised.v1', 'letters.letter.written.v1',
      'notifications.key-email.failed.v1', 'notifications.key-email.sent.v1',
      'vault-media.recording.deleted.v1', 'vault-media.recording.hash-mismatch.v1', 'vault-media.recording.hash-verified.v1', 'vault-media.recording.saved.v1',
    ]);
  });
});

describe('receiveEvent', () => {
  const declarations = [BillingEvents.SubscriptionActivated, BillingEvents.SubscriptionEnded];

  it('hands back the event typed by the declaration of its subject, as the schema shapes it', () => {
    const result = receiveEvent(declarations, BillingEvents.SubscriptionEnded.subject, envelope({ ownerId: 'o', tier: 'none', endedAt: 'now', card: '4242' }));
    if (!result.ok) throw new Error(result.reason);
    const received = result.event;
    expectType<typeof received, ReceivedEvent<(typeof declarations)[number]>>(true);
    expect(received.subject).toBe('billing.subscription.ended.v1');
    // Unknown fields are dropped: a consumer never passes on what its declaration does not name.
    expect(received.data).toEqual({ ownerId: 'o', tier: 'none', endedAt: 'now' });
    // The subject discriminates: each branch has its own event's fields.
    if (received.subject === BillingEvents.SubscriptionActivated.subject) expectType<typeof received.data.activatedAt, string>(true);
    else expectType<typeof received.data.endedAt, string>(true);
    // @ts-expect-error: before narrowing, a field of one event only is not there
    expect(received.data.endedAt).toBe('now');
  });

  it('says why it refuses data its declaration does not accept, and a subject it has no declaration for', () => {
    expect(receiveEvent(declarations, BillingEvents.SubscriptionActivated.subject, envelope({ ownerId: 'o', tier: 'gold', activatedAt: 'now' }))).toEqual({
      ok: false,
      reason: expect.stringMatching(/^data refused by the declaration of billing\.subscription\.activated\.v1: tier: .*; periodEnd: /),
    });
    expect(receiveEvent(declarations, BillingEvents.SubscriptionEnded.subject, envelope(null))).toEqual({ ok: false, reason: expect.stringMatching(/: \(data\): /) });
    expect(receiveEvent(declarations, BillingEvents.SubscriptionRenewed.subject, envelope({ ownerId: 'o', tier: 'pro', periodEnd: null }))).toEqual({
      ok: false, reason: 'no declaration for subject billing.subscription.renewed.v1',
    });
  });
});
