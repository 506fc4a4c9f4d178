import { useId, useState } from 'react';
import { EmailVerifyMessages } from '@lv/contracts';
import { errorMessage } from '../api/client.js';
import { resendVerification } from '../api/settings.js';
import { Button } from '../components/ui/button.js';
import { Spinner } from '../components/ui/spinner.js';

/**
 * "Resend verification e-mail": a new link to the account's address (the one before stops working).
 * The answer (sent, verified already, or the refusal: 3 an hour) is read out where the button is.
 */
export function ResendVerificationButton({ className }: { className?: string }) {
  const [sending, setSending] = useState(false);
  const [outcome, setOutcome] = useState<{ ok: boolean; message: string } | null>(null);

  const onClick = async () => {
    if (sending) return;
    setSending(true);
    try {
      setOutcome({ ok: true, message: (await resendVerification()).message });
    } catch (failure) {
      setOutcome({ ok: false, message: errorMessage(failure, 'Could not send the e-mail. Please try again.') });
    } finally {
      setSending(false);
    }
  };

  return (
    <div className={className}>
      <Button type="button" variant="outline" disabled={sending} aria-busy={sending || undefined} onClick={() => void onClick()}>
        {sending ? <Spinner className="h-4 w-4" /> : null}
        {EmailVerifyMessages.resend}
      </Button>
      {outcome ? (
        <p role={outcome.ok ? 'status' : 'alert'} className={outcome.ok ? 'mt-2 text-sm' : 'mt-2 text-sm text-destructive'}>
          {outcome.message}
        </p>
      ) : null}
    </div>
  );
}

/**
 * Shown to a signed-in owner whose address is not verified yet: until he opens the link, nothing is
 * e-mailed on his behalf (access keys, trustee invitations), so the banner says so on every page.
 */
export function VerifyEmailBanner({ email }: { email: string }) {
  const titleId = useId();
  return (
    <section aria-labelledby={titleId} className="border-b border-amber-300 bg-amber-50 px-4 py-3 text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-50">
      <div className="mx-auto flex max-w-5xl flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div className="min-w-0">
          <h2 id={titleId} className="font-semibold">{EmailVerifyMessages.bannerTitle}</h2>
          <p className="text-sm break-words">{EmailVerifyMessages.bannerText(email)}</p>
        </div>
        <ResendVerificationButton className="shrink-0" />
      </div>
    </section>
  );
}
