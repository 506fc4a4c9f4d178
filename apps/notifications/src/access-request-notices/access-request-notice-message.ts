import type { KeyEmailMessage } from '../key-emails/key-email-message.js';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Longest piece of the requester's words the e-mail repeats (the app shows them whole). */
const WORDS_SHOWN = 120;

/**
 * What a requester or owner wrote, as one plain line: control characters and line breaks become
 * spaces (no forged lines or headers in the text part), runs of spaces one, long text cut short.
 */
export function plainLine(text: string | null): string {
  const line = (text ?? '').replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').replace(/\s+/g, ' ').trim();
  return line.length > WORDS_SHOWN ? `${line.slice(0, WORDS_SHOWN - 1)}…` : line;
}

/** One Message-ID per request, whatever the attempt. */
export const accessRequestNoticeMessageId = (requestId: string) => `<access-request-${requestId}@legacy-vault>`;

export interface AccessRequestNotice {
  requestId: string;
  ownerEmail: string;
  ownerName: string | null;
  requesterName: string | null;
  relationship: string | null;
}

/**
 * The owner's e-mail about a request: who asked (in their own words: the name and relationship they
 * gave, as plain text) and where to decide (/access-control). Nothing is shared until he approves it;
 * no message, no address of the requester, no vault content. The subject names no one.
 */
export function renderAccessRequestNotice(notice: AccessRequestNotice, publicUrl: string): KeyEmailMessage {
  const link = new URL('/access-control', publicUrl).href;
  const ownerName = plainLine(notice.ownerName);
  const requesterName = plainLine(notice.requesterName);
  const relationship = plainLine(notice.relationship);
  const greeting = ownerName ? `Dear ${ownerName},` : 'Hello,';
  const asked = 'Someone has asked for access to your Legacy Vault.';
  const who = [`Name they gave: ${requesterName || '(none given)'}`, `Relationship: ${relationship || '(none given)'}`];
  const decide = `Nothing is shared until you approve the request and choose what their key opens. You can see it, approve it or decline it on your Access Control page: ${link}`;
  const why = 'You receive this e-mail because "Access Requests" is on in your Settings; you can turn it off there.';
  const text = [greeting, '', asked, '', ...who, '', decide, '', why, '', 'Legacy Vault'].join('\n');
  const html = [
    `<p>${escapeHtml(greeting)}</p>`,
    `<p>${escapeHtml(asked)}</p>`,
    `<p>${who.map(escapeHtml).join('<br>')}</p>`,
    `<p>Nothing is shared until you approve the request and choose what their key opens. <a href="${escapeHtml(link)}">See it on your Access Control page</a> (${escapeHtml(link)}).</p>`,
    `<p>${escapeHtml(why)}</p>`,
    '<p>Legacy Vault</p>',
  ].join('\n');
  return { messageId: accessRequestNoticeMessageId(notice.requestId), to: notice.ownerEmail, subject: 'Someone asked for access to your Legacy Vault', text, html };
}
