import { keyLinkUrl, VIEWER_TAB_LABELS, type SendKeyEmailJob } from '@lv/contracts';

export interface KeyEmailMessage {
  messageId: string;
  to: string;
  subject: string;
  text: string;
  html: string;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * One Message-ID per key, whatever the attempt: should a retry ever send again (the process died after
 * the server accepted the message and before the send was recorded), receivers see the same message.
 */
export const keyEmailMessageId = (keyId: string) => `<key-${keyId}@legacy-vault>`;

const longDate = (iso: string) => new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

/** The e-mail that carries an access key: who shares, the key, the link, until when, and what it opens. */
export function renderKeyEmail(job: SendKeyEmailJob, key: string, publicUrl: string): KeyEmailMessage {
  // The key in the fragment: opening the link sends it to no server (issue 29).
  const link = keyLinkUrl(publicUrl, key, job.ownerId);
  // The greeting names nobody: the recipient's name is text the owner (or a requester) typed, and the
  // first line of a mail sent in the product's name must not carry it ("Dear Your bank: call …", issue 29).
  const greeting = 'Hello,';
  const sections = job.oneLetter ? 'one letter, written for you' : job.scopes.map((s) => VIEWER_TAB_LABELS[s]).join(', ');
  const until = longDate(job.expiresAt);
  // A milestone key: a letter sealed for the recipient until today, and nothing else of the vault.
  const shared = job.oneLetter ? `${job.sharedBy} wrote you a letter and asked us to give it to you today.` : `${job.sharedBy} has shared their Legacy Vault with you, read-only.`;
  const lines = [
    greeting,
    '',
    shared,
    '',
    `Open it here: ${link}`,
    '',
    `Or go to ${new URL('/access', publicUrl).href} and paste this access key:`,
    key,
    '',
    `It opens: ${sections}.`,
    `It works until ${until}.`,
    '',
    'Before you view anything you will be asked to accept a short notice about privacy. This key is for you alone: please do not forward this e-mail.',
    '',
    'Legacy Vault',
  ];
  const html = [
    `<p>${escapeHtml(greeting)}</p>`,
    `<p>${escapeHtml(shared)}</p>`,
    `<p><a href="${escapeHtml(link)}">${job.oneLetter ? 'Open your letter' : 'Open the vault'}</a></p>`,
    `<p>Or go to ${escapeHtml(new URL('/access', publicUrl).href)} and paste this access key:<br><code>${escapeHtml(key)}</code></p>`,
    `<p>It opens: ${escapeHtml(sections)}.<br>It works until ${escapeHtml(until)}.</p>`,
    '<p>Before you view anything you will be asked to accept a short notice about privacy. This key is for you alone: please do not forward this e-mail.</p>',
    '<p>Legacy Vault</p>',
  ].join('\n');
  return { messageId: keyEmailMessageId(job.keyId), to: job.recipientEmail, subject: job.oneLetter ? `${job.sharedBy} left a letter for you` : `${job.sharedBy} shared their Legacy Vault with you`, text: lines.join('\n'), html };
}
