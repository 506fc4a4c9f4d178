import { useId, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { AccessMessages, extractAccessKey, isAccessKeyFormat } from '@lv/contracts';
import { Button } from '../../components/ui/button.js';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.js';
import { Input, Label } from '../../components/ui/input.js';
import { ViewerDisclaimer } from './ViewerDisclaimer.js';
import { consentAccepted, redeemErrorText, redeemWithConsent, rememberConsent, storeViewSession } from './viewer-session.js';

/** The key a person pasted, or the spec's message for what is wrong with it. */
export function parseKeyInput(input: string): { key: string } | { error: string } {
  if (!input.trim()) return { error: AccessMessages.keyEmpty };
  const key = extractAccessKey(input);
  if (!key || !isAccessKeyFormat(key)) return { error: AccessMessages.keyMalformed };
  return { key };
}

/**
 * 'Already have an access key?': paste a key or the whole link, accept the disclaimer the first time,
 * and the vault opens read-only (/vault/view with the session only in the address).
 */
export function OpenWithKeyCard({ initialKey, ownerId }: { initialKey: string; ownerId: string | null }) {
  const [input, setInput] = useState(initialKey);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [held, setHeld] = useState<string | null>(null);
  const navigate = useNavigate();
  const id = useId();

  const redeem = async (key: string) => {
    setBusy(true);
    setError(null);
    try {
      const linkOwner = /^https?:\/\//i.test(input.trim()) ? new URL(input.trim()).searchParams.get('owner') : null;
      const opened = await redeemWithConsent(key, linkOwner ?? ownerId);
      storeViewSession(opened.session);
      void navigate(`/vault/view?session=${encodeURIComponent(opened.session)}`);
    } catch (e) {
      setError(redeemErrorText(e));
    } finally {
      setBusy(false);
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = parseKeyInput(input);
    if ('error' in parsed) return setError(parsed.error);
    if (!consentAccepted()) return setHeld(parsed.key);
    void redeem(parsed.key);
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Already have an access key?</CardTitle>
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
      <ViewerDisclaimer
        open={held !== null}
        onCancel={() => setHeld(null)}
        onContinue={() => {
          const key = held!;
          setHeld(null);
          rememberConsent();
          void redeem(key);
        }}
      />
    </Card>
  );
}
