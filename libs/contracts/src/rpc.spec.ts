import { z } from 'zod';
import { IdentityRpc } from './identity.messaging.js';
import { LettersRpc } from './letters.messaging.js';
import { VaultMediaRpc } from './media.messaging.js';
import { TimelineRpc } from './timeline.messaging.js';
import { healthRpc, rebuildRpc, replyType, rpc, statsRpc, type PayloadInput, type PayloadOf, type ReplyOf, type RpcDeclaration } from './rpc.js';
import type { Letter } from './letters.schemas.js';

/** Compile-time equality: `expectType<A, B>(true)` only type-checks when A and B are the same type. */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const expectType = <A, B>(_same: Same<A, B>) => undefined;

describe('rpc declarations', () => {
  it('type callers and handlers from one declaration', () => {
    const echo = rpc('rpc.test.echo', { payload: z.object({ text: z.string().trim(), times: z.number().default(1) }), reply: replyType<{ said: string[] }>() });
    expectType<PayloadInput<typeof echo>, { text: string; times?: number | undefined }>(true);
    expectType<PayloadOf<typeof echo>, { text: string; times: number }>(true);
    expectType<ReplyOf<typeof echo>, { said: string[] }>(true);
    expectType<ReplyOf<typeof LettersRpc.write>, Letter>(true);
    expectType<PayloadInput<typeof LettersRpc.write>, { id: string; title: string; content: string }>(true);
    // @ts-expect-error: a reply is not what the declaration says
    expectType<ReplyOf<typeof LettersRpc.write>, { id: string }>(true);
    expect(echo.subject).toBe('rpc.test.echo');
  });

  it('refuses a subject outside rpc.<service>.<name>', () => {
    for (const subject of ['letters.write', 'rpc.letters', 'rpc.letters.*', 'rpc.letters.>', 'rpc.Letters.write', '']) {
      expect(() => rpc(subject, { payload: z.object({}), reply: replyType<void>() })).toThrow(/must look like rpc\.<service>\.<name>/);
    }
  });

  it('keeps every subject string the services answer today, each declared once', () => {
    const all: RpcDeclaration[] = [...Object.values(IdentityRpc), ...Object.values(LettersRpc), ...Object.values(VaultMediaRpc), ...Object.values(TimelineRpc)];
    const subjects = all.map((d) => d.subject);
    expect(new Set(subjects).size).toBe(subjects.length);
    expect(subjects.sort()).toEqual([
      'rpc.identity.access-request-mail-to', 'rpc.identity.account-deletion.cancel', 'rpc.identity.account-deletion.keep-by-link', 'rpc.identity.account-deletion.request', 'rpc.identity.account-deletion.status',
      'rpc.identity.admin.overview', 'rpc.identity.change-email', 'rpc.identity.change-password', 'rpc.identity.confirm-email-change', 'rpc.identity.confirm-identity',
      'rpc.identity.confirm-identity.passkey', 'rpc.identity.confirm-identity.passkey-options', 'rpc.identity.disown-sign-in', 'rpc.identity.forgot-password', 'rpc.identity.get-me',
      'rpc.identity.health', 'rpc.identity.notification-preferences.get', 'rpc.identity.notification-preferences.save', 'rpc.identity.op.account-erase-due', 'rpc.identity.op.find-user',
      'rpc.identity.op.rebuild-projections', 'rpc.identity.op.replay-erasures', 'rpc.identity.op.set-admin', 'rpc.identity.op.set-tier', 'rpc.identity.owner-display-name',
      'rpc.identity.owner-mail-to', 'rpc.identity.passkeys.add', 'rpc.identity.passkeys.list', 'rpc.identity.passkeys.registration-options', 'rpc.identity.passkeys.remove',
      'rpc.identity.passkeys.rename', 'rpc.identity.refresh', 'rpc.identity.reset-password', 'rpc.identity.sessions.end', 'rpc.identity.sessions.end-others',
      'rpc.identity.sessions.list', 'rpc.identity.sign-in', 'rpc.identity.sign-in.passkey', 'rpc.identity.sign-in.passkey-options', 'rpc.identity.sign-in.two-step',
      'rpc.identity.sign-in.two-step.passkey', 'rpc.identity.sign-in.two-step.passkey-options',
      'rpc.identity.sign-out', 'rpc.identity.sign-up', 'rpc.identity.two-step.confirm', 'rpc.identity.two-step.disable', 'rpc.identity.two-step.recovery-codes',
      'rpc.identity.two-step.setup', 'rpc.identity.two-step.status', 'rpc.identity.undo-email-change', 'rpc.identity.update-me', 'rpc.identity.verify-email', 'rpc.identity.verify-email.resend',
      'rpc.letters.community.delete', 'rpc.letters.community.like', 'rpc.letters.community.posts', 'rpc.letters.community.publish',
      'rpc.letters.community.stories', 'rpc.letters.community.submit-story', 'rpc.letters.delete', 'rpc.letters.get', 'rpc.letters.health',
      'rpc.letters.list', 'rpc.letters.milestone-release', 'rpc.letters.op.milestones-due', 'rpc.letters.op.rebuild-projections', 'rpc.letters.op.replay-erasures',
      'rpc.letters.portrait.get', 'rpc.letters.portrait.save', 'rpc.letters.portrait.sections', 'rpc.letters.reflection.get',
      'rpc.letters.reflection.save', 'rpc.letters.revise', 'rpc.letters.seal', 'rpc.letters.stats', 'rpc.letters.titles', 'rpc.letters.unseal',
      'rpc.letters.write',
      'rpc.timeline.await-entry-gone', 'rpc.timeline.entry', 'rpc.timeline.health', 'rpc.timeline.list', 'rpc.timeline.op.rebuild-projections',
      'rpc.timeline.stats',
      'rpc.vault-media.admin.storage-by-day', 'rpc.vault-media.delete-entry', 'rpc.vault-media.export-list', 'rpc.vault-media.final-message-titles',
      'rpc.vault-media.health', 'rpc.vault-media.list-recordings', 'rpc.vault-media.music.list', 'rpc.vault-media.music.playback-link',
      'rpc.vault-media.op.music-library', 'rpc.vault-media.op.music-remove', 'rpc.vault-media.op.music-start-upload',
      'rpc.vault-media.op.rebuild-projections', 'rpc.vault-media.op.replay-erasures', 'rpc.vault-media.playback-link', 'rpc.vault-media.portrait-media-titles',
      'rpc.vault-media.report-hash', 'rpc.vault-media.report-transcode', 'rpc.vault-media.retitle', 'rpc.vault-media.start-upload', 'rpc.vault-media.stats', 'rpc.vault-media.titles', 'rpc.vault-media.viewer-link',
    ].sort());
    for (const declaration of all) expect(declaration.payload).toBeInstanceOf(z.ZodType);
  });

  it('derives the subjects every service answers from its name', () => {
    expect(healthRpc('letters').subject).toBe('rpc.letters.health');
    expect(statsRpc('vault-media').subject).toBe('rpc.vault-media.stats');
    expect(rebuildRpc('identity').subject).toBe('rpc.identity.op.rebuild-projections');
  });

  it('payload schemas refuse what a service must not accept', () => {
    expect(LettersRpc.write.payload.safeParse({ id: 'not-a-uuid', title: 't', content: 'c' }).success).toBe(false);
    expect(IdentityRpc.updateMe.payload.safeParse({ id: 'someone', full_name: 'Mallory' }).success).toBe(false);
    expect(VaultMediaRpc.reportHash.payload.safeParse({ recordingId: 'r', sha256: 'ABC', size: 1, reportToken: 't' }).success).toBe(false);
    // Unknown fields of an ordinary payload are dropped, never passed on (an owner id cannot ride along).
    expect(LettersRpc.list.payload.parse({ ownerId: 'someone-else', limit: 5 })).toEqual({ limit: 5 });
  });
});
