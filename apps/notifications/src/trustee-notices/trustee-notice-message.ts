import type { TrusteeNoticeJob } from '@lv/contracts';
import type { KeyEmailMessage } from '../key-emails/key-email-message.js';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
const longDate = (iso: string) => new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

/** One Message-ID per notice, whatever the attempt (a resend after a crash is the same message to receivers). */
export const trusteeNoticeMessageId = (noticeId: string) => `<trustee-${noticeId}@legacy-vault>`;

/**
 * The trustee's notice: that the delivery of the owner's vault has started (and when it will happen,
 * or that it waits for legal verification), or that it has happened. No vault content, no key.
 */
export function renderTrusteeNotice(job: TrusteeNoticeJob, publicUrl: string): KeyEmailMessage {
  const greeting = job.trusteeName ? `Dear ${job.trusteeName},` : 'Hello,';
  const when = job.dueAt ? `It will happen on ${longDate(job.dueAt)}.` : 'It will happen once our team has verified the legal documents.';
  const paragraphs = job.kind === 'started'
    ? [
      `You are named as the trustee of ${job.sharedBy}'s Legacy Vault. The delivery of their vault to the people they chose has started.`,
      when,
      `If this is a mistake, ${job.sharedBy} can stop it by signing in at ${publicUrl} and choosing "I'm Still Here" on the If I'm Not There page.`,
    ]
    : [
      `You are named as the trustee of ${job.sharedBy}'s Legacy Vault. Their vault has now been delivered: the people they chose have each received an access key by e-mail.`,
      'There is nothing you need to do. If someone tells you their key has not arrived, they can ask for access at the address in their e-mail.',
    ];
  const subject = job.kind === 'started' ? `${job.sharedBy}'s Legacy Vault: delivery has started` : `${job.sharedBy}'s Legacy Vault has been delivered`;
  const text = [greeting, '', ...paragraphs.flatMap((p) => [p, '']), 'Legacy Vault'].join('\n');
  const html = [`<p>${escapeHtml(greeting)}</p>`, ...paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`), '<p>Legacy Vault</p>'].join('\n');
  return { messageId: trusteeNoticeMessageId(job.noticeId), to: job.trusteeEmail, subject, text, html };
}
