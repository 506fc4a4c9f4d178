import type { AccountEmailJob } from '@lv/contracts';
import type { KeyEmailMessage } from '../key-emails/key-email-message.js';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
const when = (iso: string) => new Date(iso).toLocaleString('en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }) + ' UTC';

/** One Message-ID per e-mail, whatever the attempt. */
export const accountEmailMessageId = (emailId: string) => `<account-${emailId}@legacy-vault>`;

/** The subjects, so specs and the catcher can tell the two apart. */
export const AccountEmailSubjects = {
  'password-reset': 'Legacy Vault: choose a new password',
  'password-changed': 'Legacy Vault: your password was changed',
  'email-change-confirm': 'Legacy Vault: confirm your new e-mail address',
  'email-change-notice': 'Legacy Vault: your e-mail address is being changed',
  'new-sign-in': 'Legacy Vault: a new sign-in to your account',
  'verify-email': 'Legacy Vault: verify your e-mail address',
  'account-deletion-scheduled': 'Legacy Vault: your account will be deleted',
} as const;

/**
 * The owner's own account e-mails. A reset link works once, for 30 minutes, and ends every session;
 * the notice that the password was changed says what to do when it was not him. An e-mail change asks
 * the new address to confirm, and tells the old one at once with its "this wasn't me" link; a sign-in from
 * a new browser is told with one too. No vault content.
 */
export function renderAccountEmail(job: AccountEmailJob, link: string | null, publicUrl: string): KeyEmailMessage {
  const forgot = new URL('/auth', publicUrl).href;
  let paragraphs: string[];
  let action: { href: string; label: string } | null = null;
  if (job.kind === 'password-reset') {
    const href = new URL(link ?? '/auth', publicUrl).href;
    action = { href, label: 'Choose a new password' };
    paragraphs = [
      `Someone (we hope you) asked on ${when(job.at)} to reset the password of your Legacy Vault account.`,
      `To choose a new password, open this link. It works once, until ${when(job.expiresAt ?? job.at)}, and signs every browser out of your account: ${href}`,
      'If you did not ask, you can ignore this e-mail: your password stays as it is.',
    ];
  } else if (job.kind === 'email-change-confirm') {
    const href = new URL(link ?? '/auth', publicUrl).href;
    action = { href, label: 'Confirm this address' };
    paragraphs = [
      `Someone (we hope you) asked on ${when(job.at)} to sign in to a Legacy Vault account with this address.`,
      `To confirm it, open this link. It works once, until ${when(job.expiresAt ?? job.at)}, and signs every other browser out of the account: ${href}`,
      'If you did not ask, ignore this e-mail: nothing changes.',
    ];
  } else if (job.kind === 'email-change-notice') {
    const href = new URL(link ?? '/auth', publicUrl).href;
    action = { href, label: 'This wasn\u2019t me: undo the change' };
    paragraphs = [
      `On ${when(job.at)} someone asked to move your Legacy Vault account to another e-mail address. It changes only once the new address confirms.`,
      `If this was not you, open this link. It works once, until ${when(job.expiresAt ?? job.at)}: it keeps (or brings back) this address, signs every browser out and sends you a link to choose a new password: ${href}`,
      'If it was you, there is nothing to do.',
    ];
  } else if (job.kind === 'verify-email') {
    const href = new URL(link ?? '/auth', publicUrl).href;
    action = { href, label: 'Verify this address' };
    paragraphs = [
      `Someone (we hope you) made a Legacy Vault account with this address on ${when(job.at)}, or asked for a new link to verify it.`,
      `To verify it, open this link. It works once, until ${when(job.expiresAt ?? job.at)}. Until then Legacy Vault sends no e-mail on the account's behalf (access keys, trustee invitations): ${href}`,
      'If you did not make this account, ignore this e-mail: nothing will be sent on its behalf.',
    ];
  } else if (job.kind === 'account-deletion-scheduled') {
    const href = new URL(link ?? '/auth', publicUrl).href;
    action = { href, label: 'Keep my account' };
    paragraphs = [
      `On ${when(job.at)} you asked to delete your Legacy Vault account. It will be deleted on ${when(job.expiresAt ?? job.at)}: your letters, recordings, journal, access keys and trustees are erased then, every key and session ends, and nothing of them can be brought back.`,
      `To keep your account, open this link before then (it works once), or sign in and press "Keep my account" in Settings: ${href}`,
      'If you did not ask for this, keep your account with the link, then choose a new password with "Forgot password?" on the sign-in page.',
    ];
  } else if (job.kind === 'new-sign-in') {
    const href = new URL(link ?? '/auth', publicUrl).href;
    action = { href, label: 'This wasn\u2019t me: sign everyone out' };
    paragraphs = [
      `Your Legacy Vault account was signed in to on ${when(job.at)} from a browser it had not seen before: ${job.device ?? 'Unknown browser'}.`,
      `If this was not you, open this link. It works once, until ${when(job.expiresAt ?? job.at)}: it signs every browser out of your account and sends you a link to choose a new password: ${href}`,
      'If it was you, there is nothing to do.',
    ];
  } else {
    paragraphs = [
      `The password of your Legacy Vault account was changed on ${when(job.at)}, and every other session of the account was signed out.`,
      `If this was you, there is nothing to do. If it was not, choose a new password at once with "Forgot password?" at ${forgot}, and check who can reach your e-mail.`,
    ];
  }
  const text = ['Hello,', '', ...paragraphs.flatMap((p) => [p, '']), 'Legacy Vault'].join('\n');
  const html = [
    '<p>Hello,</p>',
    ...paragraphs.map((p, i) => (action && i === 1 ? `<p><a href="${escapeHtml(action.href)}">${action.label}</a> (it works once, until ${escapeHtml(when(job.expiresAt ?? job.at))})</p>` : `<p>${escapeHtml(p)}</p>`)),
    '<p>Legacy Vault</p>',
  ].join('\n');
  return { messageId: accountEmailMessageId(job.emailId), to: job.to, subject: AccountEmailSubjects[job.kind], text, html };
}
