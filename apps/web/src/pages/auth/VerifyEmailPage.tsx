import { useEffect, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { ErrorCodes } from '@lv/contracts';
import { ApiError, errorMessage } from '../../api/client.js';
import { verifyEmail } from '../../api/recovery.js';
import { useAuth } from '../../auth/AuthProvider.js';
import { Button, buttonClasses } from '../../components/ui/button.js';
import { Spinner } from '../../components/ui/spinner.js';
import { usePageTitle } from '../../lib/use-page-title.js';
import { ResendVerificationButton } from '../../shell/VerifyEmailBanner.js';
import { RecoveryCard, RecoveryOutcome } from './PasswordRecoveryPages.js';

/**
 * /verify-email#token=...: the link e-mailed to a new account's address. As the other account links,
 * the token rides in the fragment (never in a server's logs), is read once and leaves the address bar,
 * and nothing happens until the person presses the button (a mail scanner opening the link proves
 * nothing). Verified, a signed-in browser renews its session at once: the banner goes, and the next
 * access token tells the other services. A refused link offers a new one to a signed-in owner.
 */
export function VerifyEmailPage() {
  usePageTitle('Verify Your Email');
  const auth = useAuth();
  const { user } = auth;
  const location = useLocation();
  const navigate = useNavigate();
  const [token] = useState(() => new URLSearchParams(location.hash.replace(/^#/, '')).get('token'));
  useEffect(() => {
    if (location.hash) void navigate(location.pathname, { replace: true });
  }, [location.hash, location.pathname, navigate]);
  const [problem, setProblem] = useState<string | null>(token ? null : ErrorCodes.EMAIL_VERIFY_LINK_INVALID.message);
  const [done, setDone] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  const onClick = async () => {
    if (sending || !token) return;
    setSending(true);
    try {
      const reply = await verifyEmail({ token });
      if (user) await auth.refresh();
      setDone(reply.message);
    } catch (failure) {
      setProblem(failure instanceof ApiError ? failure.body.message : errorMessage(failure, 'Something went wrong. Please try again.'));
    } finally {
      setSending(false);
    }
  };

  if (done) {
    const next = user
      ? <Link to="/vault" className={buttonClasses({ size: 'lg', className: 'mt-5 w-full' })}>Go to My Vault</Link>
      : <Link to="/auth" className={buttonClasses({ size: 'lg', className: 'mt-5 w-full' })}>Sign In</Link>;
    return <RecoveryOutcome title="Email verified" intro="" message={done} failed={false} next={next} />;
  }
  if (problem) {
    const next = user
      ? <ResendVerificationButton className="mt-5" />
      : <Link to="/auth" className={buttonClasses({ variant: 'outline', size: 'lg', className: 'mt-5 w-full' })}>Sign in to get a new link</Link>;
    return <RecoveryOutcome title="Verify your email" intro="This link cannot be used." message={problem} failed next={next} />;
  }
  return (
    <RecoveryCard title="Verify your email" intro="Once your address is verified, Legacy Vault can e-mail access keys and trustee invitations for you.">
      <Button type="button" size="lg" className="w-full" disabled={sending} aria-busy={sending || undefined} onClick={() => void onClick()}>
        {sending ? <Spinner className="h-4 w-4" /> : null}
        Verify My Email
      </Button>
    </RecoveryCard>
  );
}
