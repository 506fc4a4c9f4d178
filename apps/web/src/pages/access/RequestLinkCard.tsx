import { lazy, Suspense, useId } from 'react';
import { toast } from 'sonner';
import { AccessMessages, RequestLinkMessages } from '@lv/contracts';
import { errorMessage } from '../../api/client.js';
import { Button } from '../../components/ui/button.js';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.js';
import { Label, Textarea } from '../../components/ui/input.js';
import { LoadFailed } from '../../components/ui/load-failed.js';
import { copyText } from './clipboard.js';
import { useRequestSetting, useSaveRequestSetting } from './use-access.js';

// The QR encoder is its own chunk, fetched when this card shows (never with the vault home).
const RequestLinkQr = lazy(async () => ({ default: (await import('./RequestLinkQr.js')).RequestLinkQr }));

/** The address of an owner's request form (the public /request page, spec 2). */
export const requestLinkFor = (ownerId: string, origin = window.location.origin) => `${origin}/request?owner=${encodeURIComponent(ownerId)}`;

/**
 * The owner's request link (issue 28): the link to send or let them scan, Copy, and the switch that
 * opens or closes it (closed, the page says so instead of offering the form).
 */
export function RequestLinkCard({ ownerId }: { ownerId: string }) {
  const id = useId();
  const link = requestLinkFor(ownerId);
  const setting = useRequestSetting(true);
  const save = useSaveRequestSetting();
  const open = save.isPending ? save.variables : setting.data?.open;

  const toggle = (next: boolean) =>
    save.mutate(next, { onError: (error) => toast.error(`Could not change the setting: ${errorMessage(error, AccessMessages.unknownError)}`) });

  return (
    <Card aria-labelledby={`${id}-title`} role="region">
      <CardHeader>
        <CardTitle id={`${id}-title`}>{RequestLinkMessages.linkTitle}</CardTitle>
        <CardDescription>{RequestLinkMessages.linkExplanation}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-5">
        <div className="flex flex-col gap-4 sm:flex-row sm:items-start">
          <Suspense fallback={<span aria-hidden="true" className="h-40 w-40 shrink-0 animate-pulse rounded-lg bg-muted" />}>
            <RequestLinkQr link={link} />
          </Suspense>
          <div className="flex min-w-0 flex-1 flex-col gap-2">
            <Label htmlFor={`${id}-link`}>Request link</Label>
            <Textarea id={`${id}-link`} value={link} readOnly rows={2} className="min-h-0 resize-none font-mono text-sm break-all" onFocus={(e) => e.currentTarget.select()} />
            <Button variant="outline" className="self-start" onClick={() => void copyText(link, RequestLinkMessages.linkCopied, 'link')}>
              Copy link
            </Button>
          </div>
        </div>
        {setting.isError ? (
          <LoadFailed message="Could not load whether your link takes requests." onRetry={() => void setting.refetch()} />
        ) : (
          <div className="flex flex-col gap-2">
            <div className="flex items-center justify-between gap-4">
              <span id={`${id}-switch`} className="font-medium">
                {RequestLinkMessages.requestsSwitch}
              </span>
              <button
                type="button"
                role="switch"
                aria-checked={open === true}
                aria-labelledby={`${id}-switch`}
                aria-busy={open === undefined || save.isPending || undefined}
                disabled={open === undefined || save.isPending}
                onClick={() => toggle(!open)}
                className="relative h-6 w-11 shrink-0 rounded-full bg-muted transition aria-checked:bg-primary disabled:opacity-60 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
              >
                <span aria-hidden="true" className={`absolute top-0.5 h-5 w-5 rounded-full bg-background shadow transition-all ${open ? 'left-5.5' : 'left-0.5'}`} />
              </button>
            </div>
            {open === false && (
              <p role="status" className="rounded-xl border border-border bg-muted p-3 text-sm">
                {RequestLinkMessages.requestsOff}
              </p>
            )}
          </div>
        )}
      </CardContent>
    </Card>
  );
}
