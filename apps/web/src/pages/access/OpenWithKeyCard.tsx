import { useId, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { AccessMessages, extractAccessKey, isAccessKeyFormat, readKeyLink, type OpenedViewSession } from '@lv/contracts';
import { Button } from '../../components/ui/button.js';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.js';
import { Input, Label } from '../../components/ui/input.js';
import { useKeyRedemption } from './use-key-redemption.js';
import { redeemErrorText } from './viewer-session.js';

/** The key a person pasted, or the spec's message for what is wrong with it. */
export function parseKeyInput(input: string): { key: string } | { error: string } {
  if (!input.trim()) return { error: AccessMessages.keyEmpty };
  const key = extractAccessKey(input);
  if (!key || !isAccessKeyFormat(key)) return { error: AccessMessages.keyMalformed };
  return { key };
}

interface OpenWithKeyCardProps {
  initialKey: string;
  ownerId: string | null;
  /** The card's heading: 'Already have an access key?', or whose vault a link's key opens. */
  title?: string;
  /** What to do with the opened session; by default, go to the viewer (which finds it in this tab). */
  onOpened?: (opened: OpenedViewSession) => void;
}

/**
 * 'Already have an access key?': paste a key or the whole link, accept the disclaimer the first time,
 * and the vault opens read-only (/vault/view; the session is kept in this tab, never in the address).
 */
export function OpenWithKeyCard({ initialKey, ownerId, title = 'Already have an access key?', onOpened }: OpenWithKeyCardProps) {
  const [input, setInput] = useState(initialKey);
  const [error, setError] = useState<string | null>(null);
  const navigate = useNavigate();
  const id = useId();
  const { redeem, busy, disclaimer } = useKeyRedemption({
    // useKeyRedemption has kept the session for this tab: the viewer finds it there.
    opened: (opened) => (onOpened ? onOpened(opened) : void navigate('/vault/view')),
    failed: (e) => setError(redeemErrorText(e)),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = parseKeyInput(input);
    if ('error' in parsed) return setError(parsed.error);
    setError(null);
    // A pasted link may name its vault (in its fragment or, an old one, its query); otherwise the page's owner does.
    const linkOwner = /^https?:\/\//i.test(input.trim()) ? readKeyLink(new URL(input.trim())).owner : null;
    void redeem(parsed.key, linkOwner ?? ownerId);
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
        <CardDescription>Works for read-only access. No login or payment needed.</CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={submit} noValidate className="space-y-3">
          <Label htmlFor={`${id}-key`}>Access key or link</Label>
          <Input id={`${id}-key`} value={input} onChange={(e) => setInput(e.target.value)} autoComplete="off" spellCheck={false} placeholder="Paste your key or the full link" />
          {error && <p role="alert" className="text-sm text-destructive">{error}</p>}
          <Button type="submit" disabled={busy}>{busy ? 'Checking…' : 'Open vault'}</Button>
        </form>
      </CardContent>
      {disclaimer}
    </Card>
  );
}
