import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { ShieldCheck } from 'lucide-react';
import { TwoStepMessages, type TwoStepChallenge } from '@lv/contracts';
import { useAuth } from '../../auth/AuthProvider.js';
import { Button } from '../../components/ui/button.js';
import { Input, Label } from '../../components/ui/input.js';
import { Spinner } from '../../components/ui/spinner.js';
import { authErrorDescription } from './auth-errors.js';
import { PasskeySignInButton } from './PasskeySignInButton.js';
import { passkeySecondStep } from '../../api/passkeys.js';

/**
 * The second step of signing in to an account with two-step sign-in on (/auth): the code the
 * authenticator app shows, or one of the recovery codes. The password step's challenge lasts five
 * minutes; after that (or when a code is refused) the message says so and "Back to sign-in" starts again.
 */
export function TwoStepSignIn({ challenge, onSignedIn, onCancel }: { challenge: TwoStepChallenge; onSignedIn: (passwordChangeRequired: boolean) => void; onCancel: () => void }) {
  const auth = useAuth();
  const [useRecovery, setUseRecovery] = useState(false);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const ids = { code: useId(), error: useId(), help: useId() };

  useEffect(() => {
    inputRef.current?.focus();
  }, [useRecovery]);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting) return;
    const typed = code.trim();
    if (!typed) {
      setError(useRecovery ? TwoStepMessages.recoveryCodeRequired : TwoStepMessages.codeRequired);
      inputRef.current?.focus();
      return;
    }
    setSubmitting(true);
    setError(null);
    try {
      const outcome = await auth.signIn({ challenge: challenge.challenge, code: typed });
      // The second step answers a session (a challenge again would be the password step's answer).
      if (!('twoStepRequired' in outcome)) onSignedIn(outcome.passwordChangeRequired);
    } catch (failure) {
      setError(authErrorDescription(failure));
      setSubmitting(false);
      inputRef.current?.focus();
    }
  };

  const switchKind = () => {
    setUseRecovery((v) => !v);
    setCode('');
    setError(null);
  };

  return (
    <section aria-labelledby={`${ids.code}-title`} className="flex flex-col gap-5">
      <div className="text-center">
        <span aria-hidden="true" className="mx-auto mb-3 grid h-10 w-10 place-items-center rounded-xl bg-primary/15 text-primary">
          <ShieldCheck className="h-5 w-5" />
        </span>
        <h2 id={`${ids.code}-title`} className="text-xl font-semibold">Two-step sign-in</h2>
        <p id={ids.help} className="mt-1 text-sm text-muted-foreground">
          {useRecovery
            ? 'Enter one of the recovery codes you saved when you turned two-step sign-in on. Each code works once.'
            : 'Open your authenticator app and enter the 6-digit code it shows for Legacy Vault.'}
        </p>
      </div>

      {error ? (
        <p id={ids.error} role="alert" className="rounded-xl border border-destructive/40 bg-destructive/10 px-4 py-3 text-sm text-destructive">
          {error}
        </p>
      ) : null}

      <form noValidate onSubmit={(event) => void onSubmit(event)} className="flex flex-col gap-4">
        <div className="flex flex-col gap-1.5">
          <Label htmlFor={ids.code}>{useRecovery ? 'Recovery code' : 'Authentication code'}</Label>
          <Input
            ref={inputRef}
            id={ids.code}
            name="code"
            type="text"
            inputMode={useRecovery ? 'text' : 'numeric'}
            autoComplete="one-time-code"
            autoCapitalize="off"
            spellCheck={false}
            placeholder={useRecovery ? 'xxxxx-xxxxx' : '123456'}
            maxLength={useRecovery ? 20 : 6}
            value={code}
            onChange={(e) => setCode(e.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={[ids.help, error ? ids.error : ''].filter(Boolean).join(' ')}
          />
        </div>
        <Button type="submit" size="lg" disabled={submitting} aria-busy={submitting || undefined}>
          {submitting ? <Spinner className="h-4 w-4" /> : null}
          Verify
        </Button>
      </form>

      {challenge.passkeys ? <PasskeySignInButton label="Use a passkey instead" ceremony={() => passkeySecondStep(challenge.challenge)} onSignedIn={onSignedIn} /> : null}

      <div className="flex flex-col items-center gap-2 text-sm">
        <button type="button" onClick={switchKind} className="font-semibold text-primary underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-ring">
          {useRecovery ? 'Use your authenticator app instead' : 'Use a recovery code instead'}
        </button>
        <button type="button" onClick={onCancel} className="text-muted-foreground underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-ring">
          Back to sign-in
        </button>
      </div>
    </section>
  );
}
