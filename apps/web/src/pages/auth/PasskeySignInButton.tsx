import { useId, useState } from 'react';
import { KeyRound } from 'lucide-react';
import type { SessionView } from '@lv/contracts';
import { useAuth } from '../../auth/AuthProvider.js';
import { Button } from '../../components/ui/button.js';
import { Spinner } from '../../components/ui/spinner.js';
import { authErrorDescription } from './auth-errors.js';
import { UserFacingError } from '../../api/passkeys.js';

/**
 * A passkey instead of typing: "Sign in with a passkey" on /auth (no e-mail or password), or "Use a
 * passkey" as the second step. `ceremony` asks the server and the browser; the session it answers
 * becomes this tab's. A refusal or a cancelled prompt is said under the button.
 */
export function PasskeySignInButton({ label, ceremony, onSignedIn }: { label: string; ceremony: () => Promise<SessionView>; onSignedIn: (passwordChangeRequired: boolean) => void }) {
  const auth = useAuth();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const errorId = useId();

  const start = async () => {
    if (pending) return;
    setPending(true);
    setError(null);
    try {
      const outcome = auth.acceptSignIn(await ceremony());
      onSignedIn(outcome.passwordChangeRequired);
    } catch (failure) {
      setError(failure instanceof UserFacingError ? failure.message : authErrorDescription(failure));
      setPending(false);
    }
  };

  return (
    <div className="flex flex-col gap-2">
      <Button type="button" variant="outline" size="lg" disabled={pending} aria-busy={pending || undefined} aria-describedby={error ? errorId : undefined} onClick={() => void start()}>
        {pending ? <Spinner className="h-4 w-4" /> : <KeyRound aria-hidden="true" className="h-4 w-4" />}
        {label}
      </Button>
      {error ? <p id={errorId} role="alert" className="text-center text-sm text-destructive">{error}</p> : null}
    </div>
  );
}
