import { TRUSTEE_REPORT_BLOCK_DAYS, TRUSTEE_REPORT_LABELS, type TrusteeReportKind, type TrusteeReportNoticeJob, type TrusteeReportNoticeState } from '@lv/contracts';
import type { KeyEmailMessage } from '../key-emails/key-email-message.js';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
const longDate = (iso: string) => new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
const dateTime = (iso: string) => `${longDate(iso)} at ${new Date(iso).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', timeZone: 'UTC' })} UTC`;
/** What was reported, said to the owner himself. */
const TO_OWNER: Record<TrusteeReportKind, string> = { died: 'have passed away', incapacitated: 'are incapacitated (e.g. in hospital)' };

/** One Message-ID per notice, whatever the attempt. */
export const trusteeReportNoticeMessageId = (noticeId: string) => `<trustee-report-${noticeId}@legacy-vault>`;

export type ReportWords = NonNullable<TrusteeReportNoticeState['report']>;
/** Who the e-mail goes to and how it names the owner. */
export interface NoticeParties {
  ownerEmail: string;
  /** The owner as the reporter's notice names them (their display name, or their account e-mail, as the invitation did). */
  ownerName: string;
}

/**
 * A report's e-mails. To the owner (at once, and as reminders during the veto window): who reported
 * what and when, when the vault would be delivered, and how to answer. To the reporter, once the
 * owner has shown a sign of life: the report is withdrawn, and nothing else of the owner's account.
 */
export function renderTrusteeReportNotice(job: TrusteeReportNoticeJob, report: ReportWords, parties: NoticeParties, publicUrl: string): KeyEmailMessage {
  const page = new URL('/if-im-not-there', publicUrl).href;
  let to: string;
  let subject: string;
  let greeting: string;
  let paragraphs: string[];
  if (job.kind === 'withdrawn') {
    to = report.trusteeEmail;
    greeting = report.trusteeName ? `Dear ${report.trusteeName},` : 'Hello,';
    subject = `Your report about ${parties.ownerName} has been withdrawn`;
    paragraphs = [
      `On ${longDate(report.reportedAt)} you reported that ${parties.ownerName} ${TRUSTEE_REPORT_LABELS[report.kind]}. ${parties.ownerName} has since let us know that they are still here, so the report has been withdrawn and nothing will be released.`,
      `You remain a trustee. You can report again after ${TRUSTEE_REPORT_BLOCK_DAYS} days if you need to.`,
    ];
  } else {
    to = parties.ownerEmail;
    greeting = 'Hello,';
    const who = report.trusteeName || 'One of your trustees';
    subject = job.kind === 'reported'
      ? `Legacy Vault: ${who} reported that you ${TO_OWNER[report.kind]}`
      : `Reminder: your Legacy Vault will be delivered on ${longDate(report.vetoEndsAt)} unless you answer`;
    paragraphs = [
      `${who}, one of your trustees, reported on ${dateTime(report.reportedAt)} that you ${TO_OWNER[report.kind]}.`,
      ...(report.note ? [`Their note: ${report.note}`] : []),
      `Unless you answer, the delivery of your vault to your emergency contacts happens no earlier than ${dateTime(report.vetoEndsAt)}.`,
      `If you are still here, sign in and choose "I'm still here" on the If I'm Not There page: ${page}`,
      'Signing in, or checking in from an inactivity warning, also withdraws the report.',
    ];
  }
  const text = [greeting, '', ...paragraphs.flatMap((p) => [p, '']), 'Legacy Vault'].join('\n');
  const html = [
    `<p>${escapeHtml(greeting)}</p>`,
    ...paragraphs.map((p) => (p.endsWith(page) ? `<p>${escapeHtml(p.slice(0, -page.length - 2))}: <a href="${escapeHtml(page)}">I'm still here</a></p>` : `<p>${escapeHtml(p)}</p>`)),
    '<p>Legacy Vault</p>',
  ].join('\n');
  return { messageId: trusteeReportNoticeMessageId(job.noticeId), to, subject, text, html };
}
