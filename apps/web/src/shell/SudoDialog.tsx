import { useId, useState, type FormEvent } from 'react';
import { ApiError, errorMessage } from '../api/client.js';
import { confirmIdentity } from '../api/settings.js';
import { Button } from '../components/ui/button.js';
import { Input, Label } from '../components/ui/input.js';
import { ModalFrame } from '../components/ui/modal.js';

/** WebAuthn in this browser (api/passkeys' passkeysSupported, without loading that module first). */
const browserHasPasskeys = () => typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';

export const SudoTexts = {
  title: 'Confirm it’s you',
  description: 'For your safety, enter your password again to continue.',
  password: 'Password',
  confirm: 'Confirm',
  cancel: 'Cancel',
  failed: 'Could not check your password. Please try again.',
  passkey: 'Use a passkey instead',
  passkeyFailed: 'That passkey could not be used. Try again, or enter your password.',
} as const;

/**
 * Sudo mode: a sensitive action (keys, trustees, delivery settings, the export) was refused because this
 * session last proved who it is more than 10 minutes ago. The password again lets it through: `onDone(true)`
 * retries it; Cancel (`onDone(false)`) leaves it refused, with the refusal's words on the page.
 */
export function SudoDialog({ onDone }: { onDone: (confirmed: boolean) => void }) {
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const fieldId = useId();
  const errorId = useId();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (pending) return;
    setPending(true);
    setError(null);
    try {
      await confirmIdentity(password);
      onDone(true);
    } catch (failure) {
      setPending(false);
      setError(failure instanceof ApiError && failure.body.fields?.currentPassword ? failure.body.fields.currentPassword : errorMessage(failure, SudoTexts.failed));
    }
  };

  const withPasskey = async () => {
    if (pending) return;
    setPending(true);
    setError(null);
    let describe = (failure: unknown) => errorMessage(failure, SudoTexts.passkeyFailed);
    try {
      // Loaded when pressed: this dialog is in every page's first load, the passkey ceremony is not.
      const passkeys = await import('../api/passkeys.js');
      describe = (failure) => passkeys.passkeyErrorMessage(failure, SudoTexts.passkeyFailed);
      await passkeys.confirmIdentityWithPasskey();
      onDone(true);
    } catch (failure) {
      setPending(false);
      setError(describe(failure));
    }
  };

  return (
    <ModalFrame open onOpenChange={(open) => (!open && !pending ? onDone(false) : undefined)} title={SudoTexts.title} description={SudoTexts.description} widthClass="max-w-md">
      <form className="space-y-4" onSubmit={(event) => void submit(event)} noValidate>
        <div className="space-y-1.5">
          <Label htmlFor={fieldId}>{SudoTexts.password}</Label>
          <Input
            id={fieldId}
            type="password"
            autoComplete="current-password"
            autoFocus
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
          />
          {error ? <p id={errorId} role="alert" className="text-sm text-destructive">{error}</p> : null}
        </div>
        <div className="flex flex-wrap justify-end gap-2">
          {browserHasPasskeys() ? <Button type="button" variant="ghost" disabled={pending} onClick={() => void withPasskey()}>{SudoTexts.passkey}</Button> : null}
          <Button type="button" variant="outline" disabled={pending} onClick={() => onDone(false)}>{SudoTexts.cancel}</Button>
          <Button type="submit" disabled={pending || !password}>{SudoTexts.confirm}</Button>
        </div>
      </form>
    </ModalFrame>
  );
}
