import { useEffect, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { ErrorCodes, type EmailChangeLinkReply, type EmailChangeLinkRequest } from '@lv/contracts';
import { ApiError, errorMessage } from '../../api/client.js';
import { confirmEmailChange, disownSignIn, undoEmailChange } from '../../api/recovery.js';
import { Button, buttonClasses } from '../../components/ui/button.js';
import { Spinner } from '../../components/ui/spinner.js';
import { usePageTitle } from '../../lib/use-page-title.js';
import { RecoveryCard, RecoveryOutcome } from './PasswordRecoveryPages.js';

export interface LinkPageText {
  pageTitle: string;
  title: string;
  intro: string;
  action: string;
  doneTitle: string;
  /** What a link without its token gets (the server's refusal for a bad one). */
  invalid: string;
}

/**
 * An account link's page (an e-mail change's, a new sign-in's "this wasn't me", an account deletion's "keep my account"): the token rides in the fragment (never in a server's logs), is read
 * once and leaves the address bar; nothing happens until the person presses the button, so a mail
 * scanner opening the link changes nothing.
 */
export function EmailChangeLinkPage({ text, send }: { text: LinkPageText; send: (body: EmailChangeLinkRequest) => Promise<Pick<EmailChangeLinkReply, 'message'>> }) {
  usePageTitle(text.pageTitle);
  const location = useLocation();
  const navigate = useNavigate();
  const [token] = useState(() => new URLSearchParams(location.hash.replace(/^#/, '')).get('token'));
  useEffect(() => {
    if (location.hash) void navigate(location.pathname, { replace: true });
  }, [location.hash, location.pathname, navigate]);
  const [problem, setProblem] = useState<string | null>(token ? null : text.invalid);
  const [done, setDone] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  const onClick = async () => {
    if (sending || !token) return;
    setSending(true);
    try {
      setDone((await send({ token })).message);
    } catch (failure) {
      setProblem(failure instanceof ApiError ? failure.body.message : errorMessage(failure, 'Something went wrong. Please try again.'));
    } finally {
      setSending(false);
    }
  };

  if (done) {
    const signIn = <Link to="/auth" className={buttonClasses({ size: 'lg', className: 'mt-5 w-full' })}>Sign In</Link>;
    return <RecoveryOutcome title={text.doneTitle} intro="" message={done} failed={false} next={signIn} />;
  }
  if (problem) return <RecoveryOutcome title={text.title} intro="This link cannot be used." message={problem} failed next={null} />;
  return (
    <RecoveryCard title={text.title} intro={text.intro}>
      <Button type="button" size="lg" className="w-full" disabled={sending} aria-busy={sending || undefined} onClick={() => void onClick()}>
        {sending ? <Spinner className="h-4 w-4" /> : null}
        {text.action}
      </Button>
    </RecoveryCard>
  );
}

const CONFIRM: LinkPageText = {
  pageTitle: 'Confirm Your New Email',
  title: 'Confirm your new email',
  intro: 'Your account will sign in with this address from now on, and every other browser signed in to it will be signed out.',
  action: 'Confirm New Email',
  doneTitle: 'Email changed',
  invalid: ErrorCodes.EMAIL_CHANGE_LINK_INVALID.message,
};

const UNDO: LinkPageText = {
  pageTitle: 'Undo the Email Change',
  title: 'This wasn’t me',
  intro: 'Your account keeps (or gets back) this address, every browser signed in to it is signed out, and we e-mail you a link to choose a new password.',
  action: 'Undo the Change',
  doneTitle: 'Change undone',
  invalid: ErrorCodes.EMAIL_CHANGE_LINK_INVALID.message,
};

const NOT_ME: LinkPageText = {
  pageTitle: 'This Wasn’t Me',
  title: 'This wasn’t me',
  intro: 'Every browser signed in to your account is signed out, and we e-mail you a link to choose a new password.',
  action: 'Sign Everyone Out',
  doneTitle: 'Everyone signed out',
  invalid: ErrorCodes.SIGN_IN_ALERT_LINK_INVALID.message,
};

/** /confirm-email#token=...: the link e-mailed to the new address. */
export function ConfirmEmailPage() {
  return <EmailChangeLinkPage text={CONFIRM} send={confirmEmailChange} />;
}

/** /undo-email-change#token=...: the "this wasn't me" link e-mailed to the old address. */
export function UndoEmailChangePage() {
  return <EmailChangeLinkPage text={UNDO} send={undoEmailChange} />;
}

/** /not-me#token=...: the "this wasn't me" link of the e-mail about a sign-in from a new browser. */
export function NotMePage() {
  return <EmailChangeLinkPage text={NOT_ME} send={disownSignIn} />;
}
