import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { RequestLinkMessages } from '@lv/contracts';
import { fetchRequestForm } from '../../api/access.js';
import { ApiError } from '../../api/client.js';
import { Spinner } from '../../components/ui/spinner.js';
import { RequestAccessForm } from './RequestAccessForm.js';

/** A link whose owner id is malformed (400) or leads to no vault (404): plain words, as for no link at all. */
export const LINK_INCOMPLETE =
  "This request link is not complete, or no longer leads to a vault. Please ask the vault owner to send it to you again: they find it in Legacy Vault, under Access Control.";
/** Too many look-ups of request links from this address (the limit counts a minute). */
export const TOO_MANY_LOOKUPS = 'Too many requests from this address. Please wait a minute and try again.';

const notice = 'rounded-xl border p-3 text-sm';
const problem = `${notice} border-destructive/40 bg-destructive/10 text-destructive`;

/** In place of the form: its title and why there is no form. */
function NoForm({ children }: { children: ReactNode }) {
  return (
    <section aria-labelledby="no-request-form" className="space-y-3">
      <h2 id="no-request-form" className="font-serif text-xl font-semibold">Access Request Form</h2>
      {children}
    </section>
  );
}

/**
 * The request form opened from an owner's link (issue 28): first asks whether the link's vault takes
 * requests and whose it is; open, it says whom the family member is asking, above the form; closed,
 * it says so and offers no form. Without a link (`linkOwner` null) the form shows as before (its
 * owner: the signed-in user, if any, or none, with AccessMessages.missingOwner).
 */
export function LinkedRequestForm({ linkOwner, ownerId, signedInEmail, token }: { linkOwner: string | null; ownerId: string | null; signedInEmail: string | null; token: string | null }) {
  const info = useQuery({
    queryKey: ['access', 'request-form', linkOwner],
    queryFn: ({ signal }) => fetchRequestForm(linkOwner ?? '', signal),
    enabled: linkOwner !== null,
  });
  const form = <RequestAccessForm ownerId={ownerId} signedInEmail={signedInEmail} token={token} />;
  if (linkOwner === null) return form;
  if (info.isPending) return <Spinner label="Checking the request link…" />;
  if (info.isError) {
    const error = info.error;
    if (error instanceof ApiError && (error.status === 400 || error.status === 404)) {
      return <NoForm><p role="alert" className={problem}>{LINK_INCOMPLETE}</p></NoForm>;
    }
    if (error instanceof ApiError && error.status === 429) {
      return <NoForm><p role="alert" className={problem}>{TOO_MANY_LOOKUPS}</p></NoForm>;
    }
    // Not known (the connection, the server): the form still goes, and the server decides.
    return form;
  }
  if (!info.data.open) {
    return (
      <NoForm>
        <p role="status" className={`${notice} border-border bg-muted`}>{RequestLinkMessages.requestsClosed}</p>
      </NoForm>
    );
  }
  return (
    <div className="space-y-4">
      <p className={`${notice} border-primary/30 bg-primary/10`}>{RequestLinkMessages.askingOwner(info.data.owner_name)}</p>
      {form}
    </div>
  );
}
