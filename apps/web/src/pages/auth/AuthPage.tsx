import { useId, useRef, useState, type FormEvent } from 'react';
import type { TwoStepChallenge } from '@lv/contracts';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { showToast } from '../../lib/toast.js';
import { ArrowLeft, Check, Circle, Compass, Eye, EyeOff, Heart } from 'lucide-react';
import { readFrom, DEFAULT_AFTER_SIGN_IN } from '../../auth/route-access.js';
import { useAuth } from '../../auth/AuthProvider.js';
import { Button, buttonClasses } from '../../components/ui/button.js';
import { Input, Label, TextField } from '../../components/ui/input.js';
import { Spinner } from '../../components/ui/spinner.js';
import { cn } from '../../lib/cn.js';
import { usePageTitle } from '../../lib/use-page-title.js';
import { useHydrated } from '../../lib/use-hydrated.js';
import { AUTH_ERROR_TITLE, authErrorDescription, serverFieldErrors } from './auth-errors.js';
import { TwoStepSignIn } from './TwoStepSignIn.js';
import { PasskeySignInButton } from './PasskeySignInButton.js';
import { signInWithPasskey } from '../../api/passkeys.js';
import { passwordRequirements, validateCredentials, type CredentialErrors } from './validation.js';

type Mode = 'login' | 'signup';

/** Sign-in / sign-up (/auth, /login, /login-signup). A signed-in visitor never sees it: the guard sends them on. */
export function AuthPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const auth = useAuth();
  const [mode, setMode] = useState<Mode>(() => (new URLSearchParams(location.search).get('mode') === 'signup' ? 'signup' : 'login'));
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [showPassword, setShowPassword] = useState(false);
  const [errors, setErrors] = useState<CredentialErrors>({});
  const [submitting, setSubmitting] = useState(false);
  /** The password was right for an account with two-step sign-in on: the code is asked for next. */
  const [challenge, setChallenge] = useState<TwoStepChallenge | null>(null);
  // Prerendered: its own buttons wait for React, as Button does (a tap before hydration would be lost).
  const hydrated = useHydrated();
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const ids = { email: useId(), password: useId(), emailError: useId(), passwordError: useId(), requirements: useId() };

  const isLogin = mode === 'login';
  usePageTitle(isLogin ? 'Login' : 'Create Account');

  const switchMode = () => {
    setMode(isLogin ? 'signup' : 'login');
    setErrors({});
  };

  const signedIn = (passwordChangeRequired: boolean) => {
    showToast((toast) => toast.success('Welcome back!', { description: 'Successfully logged in to your vault' }));
    if (passwordChangeRequired) {
      // An account older than the password rules: straight to the password fields, saying why.
      void navigate('/settings', { replace: true, state: { passwordChangeRequired: true } });
      return;
    }
    void navigate(readFrom(location.search, location.state) ?? DEFAULT_AFTER_SIGN_IN, { replace: true });
  };

  // Catches every error itself (a toast and the field errors), so the form fires it and moves on.
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting) return;
    const found = validateCredentials({ email, password }, mode);
    setErrors(found);
    if (found.email) {
      emailRef.current?.focus();
      return;
    }
    if (found.password) {
      passwordRef.current?.focus();
      return;
    }
    setSubmitting(true);
    const credentials = { email: email.trim(), password };
    try {
      if (isLogin) {
        const outcome = await auth.signIn(credentials);
        if ('twoStepRequired' in outcome) {
          setChallenge(outcome);
          setSubmitting(false);
          return;
        }
        signedIn(outcome.passwordChangeRequired);
        return;
      }
      await auth.signUp(credentials);
      showToast((toast) => toast.success('Account created!', { description: 'Welcome to Legacy Vault. Your vault is ready for your first message.' }));
      void navigate(readFrom(location.search, location.state) ?? DEFAULT_AFTER_SIGN_IN, { replace: true });
    } catch (error) {
      const fieldErrors = serverFieldErrors(error);
      if (fieldErrors.email || fieldErrors.password) setErrors(fieldErrors);
      showToast((toast) => toast.error(AUTH_ERROR_TITLE, { description: authErrorDescription(error) }));
      setSubmitting(false);
    }
  };

  const errorList = [errors.email, errors.password].filter((m): m is string => Boolean(m));
  const requirements = passwordRequirements(password);

  return (
    <div className="relative overflow-hidden">
      <div aria-hidden="true" className="pointer-events-none absolute inset-x-0 top-0 h-72 bg-gradient-to-b from-primary/10 to-transparent" />
      <div className="relative mx-auto flex max-w-md flex-col px-4 py-10 sm:py-16">
        <Link to="/" className={buttonClasses({ variant: 'ghost', size: 'sm', className: 'self-start text-muted-foreground' })}>
          <ArrowLeft aria-hidden="true" className="h-4 w-4" />
          Back to Home
        </Link>

        <div className="mt-6 rounded-3xl border border-border bg-card p-6 shadow-sm sm:p-8" data-unsaved-ignore="">
          <div className="mb-6 text-center">
            <span aria-hidden="true" className="mx-auto mb-4 grid h-12 w-12 place-items-center rounded-2xl bg-primary/15 text-primary">
              <Heart className="h-6 w-6" />
            </span>
            <h1 className="font-serif text-3xl font-semibold tracking-tight">Your legacy begins here.</h1>
            <p className="mt-2 text-muted-foreground">{isLogin ? 'Welcome back to your vault' : 'Create your Legacy Vault account'}</p>
          </div>

          {challenge ? (
            <TwoStepSignIn
              challenge={challenge}
              onSignedIn={signedIn}
              onCancel={() => {
                setChallenge(null);
                setPassword('');
              }}
            />
          ) : (
          <>
          {errorList.length > 0 ? (
            <div role="alert" className="mb-5 rounded-xl border border-destructive/40 bg-destructive/10 px-4 py-3 text-sm text-destructive">
              <p className="font-semibold">Please check the form:</p>
              <ul className="mt-1 list-disc pl-5">
                {errorList.map((message) => (
                  <li key={message}>{message}</li>
                ))}
              </ul>
            </div>
          ) : null}

          <form noValidate onSubmit={(event) => void onSubmit(event)} className="flex flex-col gap-5">
            <TextField id={ids.email} label="Email" ref={emailRef} name="email" type="email" inputMode="email" autoComplete="email" placeholder="you@example.com" value={email} onChange={(e) => setEmail(e.target.value)} error={errors.email} errorId={ids.emailError} />

            <div className="flex flex-col gap-1.5">
              <Label htmlFor={ids.password}>Password</Label>
              <div className="relative">
                <Input
                  ref={passwordRef}
                  id={ids.password}
                  name="password"
                  type={showPassword ? 'text' : 'password'}
                  autoComplete={isLogin ? 'current-password' : 'new-password'}
                  value={password}
                  onChange={(e) => setPassword(e.target.value)}
                  className="pr-12"
                  aria-invalid={errors.password ? true : undefined}
                  aria-describedby={[errors.password ? ids.passwordError : '', !isLogin ? ids.requirements : ''].filter(Boolean).join(' ') || undefined}
                />
                <button
                  type="button"
                  disabled={!hydrated}
                  onClick={() => setShowPassword((v) => !v)}
                  aria-controls={ids.password}
                  className="absolute top-1/2 right-1.5 grid h-9 w-9 -translate-y-1/2 place-items-center rounded-lg text-muted-foreground hover:bg-muted focus-visible:outline-2 focus-visible:outline-ring"
                >
                  {/* Named by text, not aria-label, so "label: Password" lookups find only the field. */}
                  <span className="sr-only">{showPassword ? 'Hide password' : 'Show password'}</span>
                  {showPassword ? <EyeOff aria-hidden="true" className="h-5 w-5" /> : <Eye aria-hidden="true" className="h-5 w-5" />}
                </button>
              </div>
              {errors.password ? (
                <p id={ids.passwordError} className="text-sm text-destructive">
                  {errors.password}
                </p>
              ) : null}
            </div>

            {!isLogin ? (
              <div id={ids.requirements} className="rounded-xl bg-muted px-4 py-3">
                <p className="text-sm font-medium">Password requirements</p>
                <ul className="mt-2 space-y-1.5 text-sm">
                  {requirements.map((req) => (
                    <li key={req.id} data-met={req.met ? 'true' : 'false'} className={cn('flex items-center gap-2', req.met ? 'text-accent-foreground' : 'text-muted-foreground')}>
                      {req.met ? (
                        <Check aria-hidden="true" className="h-4 w-4 text-green-700 dark:text-green-400" />
                      ) : (
                        <Circle aria-hidden="true" className="h-4 w-4" />
                      )}
                      <span>{req.label}</span>
                      <span className="sr-only">{req.met ? '(met)' : '(not yet met)'}</span>
                    </li>
                  ))}
                </ul>
                <p className="mt-2 text-xs text-muted-foreground">A guide to a strong password. At least 8 characters are required, and very common passwords are refused.</p>
              </div>
            ) : null}

            <Button type="submit" size="lg" disabled={submitting} aria-busy={submitting || undefined}>
              {submitting ? <Spinner className="h-4 w-4" /> : null}
              {isLogin ? 'Login' : 'Create Account'}
            </Button>
          </form>

          {isLogin ? (
            <div className="mt-4">
              <PasskeySignInButton label="Sign in with a passkey" ceremony={signInWithPasskey} onSignedIn={signedIn} />
            </div>
          ) : null}

          {isLogin ? (
            <p className="mt-4 text-center text-sm">
              <Link
                to={email.trim() ? `/forgot-password?email=${encodeURIComponent(email.trim())}` : '/forgot-password'}
                className="font-semibold text-primary underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-ring"
              >
                Forgot password?
              </Link>
            </p>
          ) : null}

          <p className="mt-6 text-center text-sm text-muted-foreground">
            {isLogin ? "Don't have an account? " : 'Already have an account? '}
            <button
              type="button"
              disabled={!hydrated}
              onClick={switchMode}
              className="font-semibold text-primary underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-ring"
            >
              {isLogin ? 'Create Account' : 'Login Instead'}
            </button>
          </p>
          </>
          )}
        </div>

        <Link to="/" className={buttonClasses({ variant: 'outline', className: 'mt-4' })}>
          <Compass aria-hidden="true" className="h-4 w-4" />
          Explore Without Login
        </Link>
      </div>
    </div>
  );
}
