import { useEffect, useState } from 'react';
import { AccessMessages, KeyStatusMessages, type KeyStatusReply } from '@lv/contracts';
import { ApiError } from '../../api/client.js';
import { checkKeyStatus } from '../../api/access.js';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.js';
import { Spinner } from '../../components/ui/spinner.js';
import { OpenWithKeyCard, parseKeyInput } from './OpenWithKeyCard.js';
import { redeemErrorText } from './viewer-session.js';

type Check =
  | { kind: 'checking' }
  | { kind: 'known'; reply: KeyStatusReply }
  /** Nothing more can be said of the key (unknown, malformed); the request form is the way on. */
  | { kind: 'refused'; message: string }
  /** The check itself failed (too many tries, no connection): the key may still open the vault. */
  | { kind: 'unchecked'; message: string };

/** What the landing page says of a key that cannot open the vault (null: it can). */
function refusalOf(check: Check): string | null {
  if (check.kind === 'refused') return check.message;
  if (check.kind !== 'known' || check.reply.status === 'active') return null;
  return check.reply.status === 'revoked' ? KeyStatusMessages.revoked : KeyStatusMessages.expired;
}

/**
 * The first screen of a key e-mail's link (issue 28): whose vault it is and "Open vault" with the key
 * already in, or, before any disclaimer, why this key cannot open it any more. The request form and
 * the rest of the page follow below.
 */
export function KeyLanding({ accessKey, ownerId }: { accessKey: string; ownerId: string | null }) {
  const parsed = parseKeyInput(accessKey);
  const [check, setCheck] = useState<Check>(() => ('error' in parsed ? { kind: 'refused', message: parsed.error } : { kind: 'checking' }));
  const key = 'key' in parsed ? parsed.key : null;

  useEffect(() => {
    if (!key) return;
    const abort = new AbortController();
    checkKeyStatus({ access_key: key, owner: ownerId }, abort.signal).then(
      (reply) => setCheck({ kind: 'known', reply }),
      (error: unknown) => {
        if (abort.signal.aborted) return;
        const refused = error instanceof ApiError && ['INVALID_OR_EXPIRED_KEY', 'VALIDATION_FAILED'].includes(error.code);
        setCheck({ kind: refused ? 'refused' : 'unchecked', message: refused ? AccessMessages.keyInvalid : redeemErrorText(error) });
      },
    );
    return () => abort.abort();
  }, [key, ownerId]);

  if (check.kind === 'checking') {
    return <p role="status" className="flex items-center gap-2"><Spinner className="h-4 w-4" />Checking your access key…</p>;
  }
  const ownerName = check.kind === 'known' ? check.reply.owner_name : null;
  const title = check.kind === 'known' ? KeyStatusMessages.givenAccess(ownerName) : 'Your access key';
  const refusal = refusalOf(check);
  if (refusal) {
    return (
      <Card>
        <CardHeader>
          <CardTitle>{title}</CardTitle>
          <CardDescription>You can ask for access again with the form below.</CardDescription>
        </CardHeader>
        <CardContent><p role="alert" className="font-medium text-destructive">{refusal}</p></CardContent>
      </Card>
    );
  }
  return (
    <div className="space-y-2">
      {check.kind === 'unchecked' && <p role="alert" className="text-sm text-destructive">{check.message}</p>}
      <OpenWithKeyCard initialKey={accessKey} ownerId={ownerId} title={title} />
    </div>
  );
}
