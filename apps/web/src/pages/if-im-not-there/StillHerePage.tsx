import { useMutation } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router-dom';
import { ErrorCodes, type CheckInLinkRequest } from '@lv/contracts';
import { errorMessage } from '../../api/client.js';
import { checkInByLink } from '../../api/if-im-not-there.js';
import { Button } from '../../components/ui/button.js';
import { usePageTitle } from '../../lib/use-page-title.js';

const LINK_PARAMS = ['w', 'u', 'exp', 'sig'] as const;

/** The link's signed parameters, or null when one is missing (a link cut short by a mail program). */
function linkOf(params: URLSearchParams): CheckInLinkRequest | null {
  const values = LINK_PARAMS.map((name) => params.get(name));
  if (values.some((v) => !v)) return null;
  const [w, u, exp, sig] = values as string[];
  return { w: w!, u: u!, exp: exp!, sig: sig! };
}

/**
 * /still-here?w=…&u=…&exp=…&sig=… (public): the "I'm still here" link of an inactivity warning. It
 * checks in only when the owner presses the button, never on opening: mail programs that open links
 * to scan them would otherwise check in for an owner who is gone, and his vault would never reach
 * his family. Says plainly what happened.
 */
export function StillHerePage() {
  usePageTitle("I'm Still Here");
  const [params] = useSearchParams();
  const link = linkOf(params);
  const checkIn = useMutation({ mutationFn: () => checkInByLink(link!) });
  const problem = !link ? ErrorCodes.CHECK_IN_LINK_INVALID.message : checkIn.isError ? errorMessage(checkIn.error, 'Could not check you in. Please try again, or sign in instead.') : null;
  return (
    <div className="mx-auto flex max-w-xl flex-col items-center gap-5 px-4 py-16 text-center">
      <h1 className="font-serif text-3xl font-semibold">{checkIn.isSuccess ? 'Thank you. You are checked in.' : 'Are you still here?'}</h1>
      {checkIn.isSuccess ? (
        <p role="status" aria-label="Check-in">
          Your vault stays yours: the inactivity watch now counts from today, and no delivery starts because of the e-mail you received.
          {checkIn.data.delivery_cancelled ? ' The delivery of your vault that had started has been stopped; nothing was handed over.' : ''}
        </p>
      ) : problem ? (
        <p role="alert" className="text-destructive">
          {problem}
        </p>
      ) : (
        <p>Press the button to tell Legacy Vault you are still here. Your vault then stays yours, and the inactivity watch starts counting again from today.</p>
      )}
      {link && !checkIn.isSuccess && !checkIn.isError ? (
        <Button size="lg" disabled={checkIn.isPending} onClick={() => checkIn.mutate()}>
          I&apos;m still here
        </Button>
      ) : null}
      {!checkIn.isSuccess ? (
        <p className="text-sm text-muted-foreground">
          Signing in also counts. <Link className="font-medium text-primary underline-offset-4 hover:underline" to="/auth">Sign in</Link>
        </p>
      ) : null}
    </div>
  );
}
