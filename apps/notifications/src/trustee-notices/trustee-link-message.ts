import type { TrusteeLinkJob } from '@lv/contracts';
import type { KeyEmailMessage } from '../key-emails/key-email-message.js';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
const longDate = (iso: string) => new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

/** One Message-ID per link, whatever the attempt. */
export const trusteeLinkMessageId = (linkId: string) => `<trustee-link-${linkId}@legacy-vault>`;

/**
 * A trustee's link: the invitation to accept or decline the role, or (asked for again) the way back to
 * their page. It says what the role is and is not: no vault content, now or before a release.
 */
export function renderTrusteeLink(job: TrusteeLinkJob, link: string, publicUrl: string): KeyEmailMessage {
  const url = new URL(link, publicUrl).href;
  const until = longDate(job.expiresAt);
  const greeting = job.trusteeName ? `Dear ${job.trusteeName},` : 'Hello,';
  const paragraphs = job.kind === 'invitation'
    ? [
      `${job.ownerName} has named you as a trustee of their Legacy Vault: one of the few people who can tell us, one day, that they have died or cannot look after their affairs.`,
      'Being a trustee gives you no access to the vault. If you accept, you can report when the time comes, and other trustees and the owner are asked before anything happens.',
      `Please accept or decline here (the link is yours alone, works once, until ${until}): ${url}`,
    ]
    : [
      `Here is your trustee link for ${job.ownerName}'s Legacy Vault, as you asked.`,
      `It is yours alone and works until ${until}: ${url}`,
    ];
  const subject = job.kind === 'invitation' ? `${job.ownerName} has named you a trustee of their Legacy Vault` : `Your trustee link for ${job.ownerName}'s Legacy Vault`;
  const text = [greeting, '', ...paragraphs.flatMap((p) => [p, '']), 'If you did not expect this e-mail, you can ignore it.', '', 'Legacy Vault'].join('\n');
  const html = [
    `<p>${escapeHtml(greeting)}</p>`,
    ...paragraphs.slice(0, -1).map((p) => `<p>${escapeHtml(p)}</p>`),
    `<p><a href="${escapeHtml(url)}">${job.kind === 'invitation' ? 'Accept or decline' : 'Open my trustee page'}</a> (yours alone, until ${escapeHtml(until)})</p>`,
    '<p>If you did not expect this e-mail, you can ignore it.</p>',
    '<p>Legacy Vault</p>',
  ].join('\n');
  return { messageId: trusteeLinkMessageId(job.linkId), to: job.trusteeEmail, subject, text, html };
}
