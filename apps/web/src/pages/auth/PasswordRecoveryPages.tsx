import { useEffect, useId, useState, type FormEvent, type ReactNode } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { ArrowLeft, KeyRound } from 'lucide-react';
import { ErrorCodes, newPasswordProblem, ResetMessages } from '@lv/contracts';
import { ApiError, errorMessage } from '../../api/client.js';
import { requestPasswordReset, resetPassword } from '../../api/recovery.js';
import { Button, buttonClasses } from '../../components/ui/button.js';
import { TextField } from '../../components/ui/input.js';
import { Spinner } from '../../components/ui/spinner.js';
import { usePageTitle } from '../../lib/use-page-title.js';
import { validateCredentials } from './validation.js';

/** The frame both pages share: a card under "Back to Sign In". */
export function RecoveryCard({ title, intro, children }: { title: string; intro: string; children: ReactNode }) {
  return (
    <div className="mx-auto flex max-w-md flex-col px-4 py-10 sm:py-16">
      <Link to="/auth" className={buttonClasses({ variant: 'ghost', size: 'sm', className: 'self-start text-muted-foreground' })}>
        <ArrowLeft aria-hidden="true" className="h-4 w-4" />
        Back to Sign In
      </Link>
      <div className="mt-6 rounded-3xl border border-border bg-card p-6 shadow-sm sm:p-8">
        <div className="mb-6 text-center">
          <span aria-hidden="true" className="mx-auto mb-4 grid h-12 w-12 place-items-center rounded-2xl bg-primary/15 text-primary">
            <KeyRound className="h-6 w-6" />
          </span>
          <h1 className="font-serif text-3xl font-semibold tracking-tight">{title}</h1>
          <p className="mt-2 text-muted-foreground">{intro}</p>
        </div>
        {children}
      </div>
    </div>
  );
}

/** A link page's outcome: what was done (a status) or why the link cannot be used (an alert), then where to go. */
export function RecoveryOutcome({ title, intro, message, failed, next }: { title: string; intro: string; message: string; failed: boolean; next: ReactNode }) {
  return (
    <RecoveryCard title={title} intro={intro}>
      <p
        role={failed ? 'alert' : 'status'}
        className={failed ? 'rounded-xl border border-destructive/40 bg-destructive/10 px-4 py-3 text-sm text-destructive' : 'rounded-xl border border-primary/30 bg-primary/10 px-4 py-3 text-sm'}
      >
        {message}
      </p>
      {next}
    </RecoveryCard>
  );
}

/**
 * /forgot-password (public): asks for the address and answers with the same words whether or not it
 * has an account; the e-mail, when there is one, carries a link that works once, for 30 minutes.
 */
export function ForgotPasswordPage() {
  usePageTitle('Forgot Password');
  const [params] = useSearchParams();
  const [email, setEmail] = useState(() => params.get('email') ?? '');
  const [error, setError] = useState<string | undefined>();
  const [sent, setSent] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const ids = { email: useId(), error: useId() };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting) return;
    const problem = validateCredentials({ email, password: 'x'.repeat(8) }).email;
    setError(problem);
    if (problem) return;
    setSubmitting(true);
    try {
      setSent((await requestPasswordReset(email.trim())).message);
    } catch (failure) {
      setError(failure instanceof ApiError && failure.body.fields?.email ? failure.body.fields.email : errorMessage(failure, 'Could not send the request. Please try again.'));
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <RecoveryCard title="Forgot your password?" intro="Enter the e-mail address of your account. We will send it a link to choose a new password.">
      {sent ? (
        <div role="status" className="rounded-xl border border-primary/30 bg-primary/10 px-4 py-3 text-sm">
          <p>{sent}</p>
          <p className="mt-2 text-muted-foreground">Nothing arrived? Check your spam folder, or ask again in a few minutes.</p>
        </div>
      ) : (
        <form noValidate onSubmit={(event) => void onSubmit(event)} className="flex flex-col gap-5">
          <TextField id={ids.email} label="Email" name="email" type="email" inputMode="email" autoComplete="email" placeholder="you@example.com" value={email} onChange={(e) => setEmail(e.target.value)} error={error} errorId={ids.error} />
          <Button type="submit" size="lg" disabled={submitting} aria-busy={submitting || undefined}>
            {submitting ? <Spinner className="h-4 w-4" /> : null}
            Send Reset Link
          </Button>
        </form>
      )}
    </RecoveryCard>
  );
}

/** The link's address and token, from its fragment (never sent to a server by the browser). */
function linkOf(hash: string): { email: string; token: string } | null {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const email = params.get('email');
  const token = params.get('token');
  return email && token ? { email, token } : null;
}

/**
 * /reset-password#email=…&token=… (public): the link of the reset e-mail. A new password (the sign-up
 * rules) typed twice; once set, every session of the account has ended and the person signs in again
 * with it (the page says so and links to the sign-in screen).
 */
export function ResetPasswordPage() {
  usePageTitle('Choose a New Password');
  const location = useLocation();
  const navigate = useNavigate();
  const [link] = useState(() => linkOf(location.hash));
  // Read once, then out of the address bar (and so out of the history and any screenshot of it).
  useEffect(() => {
    if (location.hash) void navigate(location.pathname, { replace: true });
  }, [location.hash, location.pathname, navigate]);
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<{ password?: string; confirm?: string }>({});
  const [linkProblem, setLinkProblem] = useState<string | null>(link ? null : ErrorCodes.RESET_LINK_INVALID.message);
  const [done, setDone] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const ids = { password: useId(), confirm: useId(), passwordError: useId(), confirmError: useId() };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting || !link) return;
    const problem = newPasswordProblem(password);
    const found = { password: problem, confirm: !problem && password !== confirm ? ResetMessages.passwordsDoNotMatch : undefined };
    setErrors(found);
    if (found.password || found.confirm) return;
    setSubmitting(true);
    try {
      setDone((await resetPassword({ ...link, newPassword: password })).message);
    } catch (failure) {
      if (failure instanceof ApiError && failure.code === 'RESET_LINK_INVALID') setLinkProblem(failure.body.message);
      else if (failure instanceof ApiError && failure.body.fields?.newPassword) setErrors({ password: failure.body.fields.newPassword });
      else setErrors({ password: errorMessage(failure, 'Could not change the password. Please try again.') });
    } finally {
      setSubmitting(false);
    }
  };

  if (done) {
    const signIn = <Link to="/auth" className={buttonClasses({ size: 'lg', className: 'mt-5 w-full' })}>Sign In</Link>;
    return <RecoveryOutcome title="Password changed" intro={link ? `For ${link.email}` : ''} message={done} failed={false} next={signIn} />;
  }
  if (linkProblem) {
    const again = <Link to="/forgot-password" className={buttonClasses({ variant: 'outline', size: 'lg', className: 'mt-5 w-full' })}>Ask for a New Link</Link>;
    return <RecoveryOutcome title="Choose a new password" intro="This link cannot be used." message={linkProblem} failed next={again} />;
  }
  return (
    <RecoveryCard title="Choose a new password" intro={`For ${link!.email}. Every browser signed in to your account will be signed out.`}>
      <form noValidate onSubmit={(event) => void onSubmit(event)} className="flex flex-col gap-5">
        <TextField id={ids.password} label="New Password" name="new-password" type="password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} error={errors.password} errorId={ids.passwordError}>
          <p className="text-xs text-muted-foreground">At least 8 characters; very common passwords are refused.</p>
        </TextField>
        <TextField id={ids.confirm} label="Confirm New Password" name="confirm-password" type="password" autoComplete="new-password" value={confirm} onChange={(e) => setConfirm(e.target.value)} error={errors.confirm} errorId={ids.confirmError} />
        <Button type="submit" size="lg" disabled={submitting} aria-busy={submitting || undefined}>
          {submitting ? <Spinner className="h-4 w-4" /> : null}
          Set New Password
        </Button>
      </form>
    </RecoveryCard>
  );
}
