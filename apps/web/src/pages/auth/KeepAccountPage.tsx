import { ErrorCodes } from '@lv/contracts';
import { keepAccountByLink } from '../../api/account-deletion.js';
import { EmailChangeLinkPage, type LinkPageText } from './EmailChangePages.js';

const KEEP: LinkPageText = {
  pageTitle: 'Keep My Account',
  title: 'Keep my account',
  intro: 'Your account is scheduled for deletion. Press the button to cancel the deletion: nothing of your account is erased.',
  action: 'Keep My Account',
  doneTitle: 'Account kept',
  invalid: ErrorCodes.ACCOUNT_DELETION_LINK_INVALID.message,
};

/** /keep-account#token=...: the link e-mailed when the account's deletion was asked for; it acts only when the button is pressed. */
export function KeepAccountPage() {
  return <EmailChangeLinkPage text={KEEP} send={keepAccountByLink} />;
}
