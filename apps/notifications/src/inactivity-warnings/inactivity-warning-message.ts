import type { InactivityWarningJob } from '@lv/contracts';
import type { KeyEmailMessage } from '../key-emails/key-email-message.js';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
const longDate = (iso: string) => new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

/** One Message-ID per warning, whatever the attempt. */
export const inactivityWarningMessageId = (warningId: string) => `<inactivity-${warningId}@legacy-vault>`;

/**
 * The owner's warning: his vault's delivery starts on a date unless he checks in, with the link that
 * checks him in (the link is his alone and works once) and the other ways to do it. No vault content.
 */
export function renderInactivityWarning(job: InactivityWarningJob, link: string, publicUrl: string): KeyEmailMessage {
  const checkIn = new URL(link, publicUrl).href;
  const when = longDate(job.lapseAt);
  const test = job.stage === 0;
  const paragraphs = [
    test
      ? `This is the test you asked for on the If I'm Not There page. Had you stopped signing in, the delivery of your vault to your emergency contacts would start on ${when}; a real warning looks like this one.`
      : `You have not signed in to Legacy Vault for a while. As you asked on the If I'm Not There page, the delivery of your vault to your emergency contacts will start on ${when} unless you check in before then.`,
    `If you are still here, open this link (it is yours alone and works once): ${checkIn}`,
    `Signing in at ${publicUrl} also counts, and so does "I'm Still Here" on the If I'm Not There page. You can pause or change the watch there too.`,
  ];
  const subject = test ? 'Legacy Vault: a test of your inactivity warning'
    : job.stage === 1 ? `Legacy Vault: are you still there? Your vault is delivered on ${when}` : `Last reminder: your Legacy Vault is delivered on ${when}`;
  const text = ['Hello,', '', ...paragraphs.flatMap((p) => [p, '']), 'Legacy Vault'].join('\n');
  const html = [
    '<p>Hello,</p>',
    `<p>${escapeHtml(paragraphs[0]!)}</p>`,
    `<p><a href="${escapeHtml(checkIn)}">I'm still here</a> (this link is yours alone and works once)</p>`,
    `<p>${escapeHtml(paragraphs[2]!)}</p>`,
    '<p>Legacy Vault</p>',
  ].join('\n');
  return { messageId: inactivityWarningMessageId(job.warningId), to: job.ownerEmail, subject, text, html };
}
