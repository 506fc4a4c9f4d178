import { lazy, Suspense, useId, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { Copy, Download, ShieldCheck, TriangleAlert } from 'lucide-react';
import { TwoStepMessages, type TwoStepSetup } from '@lv/contracts';
import { ApiError, errorMessage } from '../../api/client.js';
import { confirmTwoStep, disableTwoStep, fetchTwoStepStatus, regenerateRecoveryCodes, settingsKeys, startTwoStepSetup } from '../../api/settings.js';
import { Button } from '../../components/ui/button.js';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.js';
import { TextField } from '../../components/ui/input.js';
import { LoadFailed } from '../../components/ui/load-failed.js';
import { Spinner } from '../../components/ui/spinner.js';

// The QR encoder loads only when a set-up starts, never with the settings page.
const TwoStepQr = lazy(async () => ({ default: (await import('./TwoStepQr.js')).TwoStepQr }));

type FieldErrors = { code?: string; currentPassword?: string; form?: string };

/** A refused code or password as the fields' messages; anything else (429, a lost connection) for the whole form. */
function fieldErrorsOf(error: unknown): FieldErrors {
  if (error instanceof ApiError && error.code === 'VALIDATION_FAILED' && error.body.fields) {
    const { code, currentPassword } = error.body.fields;
    if (code || currentPassword) return { ...(code ? { code } : {}), ...(currentPassword ? { currentPassword } : {}) };
  }
  return { form: errorMessage(error, 'Something went wrong. Please try again.') };
}

/** "xxxxx-xxxxx" groups of the secret, for typing it into an app by hand. */
const grouped = (secret: string) => secret.replace(/(.{4})/g, '$1 ').trim();

type Panel = 'idle' | 'regenerate' | 'disable';

/**
 * Two-step sign-in (/settings): set up with an authenticator app (a QR code drawn here, the key as
 * text to type in by hand, then the code the app shows), the ten recovery codes shown once with copy
 * and download, new recovery codes, and turning it off (the password and a code).
 */
export function TwoStepSettings() {
  const queryClient = useQueryClient();
  const status = useQuery({ queryKey: settingsKeys.twoStep, queryFn: ({ signal }) => fetchTwoStepStatus(signal) });
  const [setup, setSetup] = useState<TwoStepSetup | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [panel, setPanel] = useState<Panel>('idle');
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const ids = { code: useId(), codeError: useId(), password: useId(), passwordError: useId(), formError: useId(), secret: useId(), codesTitle: useId() };
  const refresh = () => queryClient.invalidateQueries({ queryKey: settingsKeys.twoStep });

  const reset = () => {
    setCode('');
    setPassword('');
    setErrors({});
  };

  const start = useMutation({
    mutationFn: startTwoStepSetup,
    onSuccess: (started) => {
      reset();
      setSetup(started);
    },
    onError: (error) => toast.error('Two-step sign-in could not be set up.', { description: errorMessage(error, 'Please try again.') }),
  });
  const confirm = useMutation({
    mutationFn: confirmTwoStep,
    onSuccess: ({ recoveryCodes }) => {
      reset();
      setSetup(null);
      setCodes(recoveryCodes);
      toast.success(TwoStepMessages.enabled);
      void refresh();
    },
    onError: (error) => setErrors(fieldErrorsOf(error)),
  });
  const regenerate = useMutation({
    mutationFn: regenerateRecoveryCodes,
    onSuccess: ({ recoveryCodes }) => {
      reset();
      setPanel('idle');
      setCodes(recoveryCodes);
      void refresh();
    },
    onError: (error) => setErrors(fieldErrorsOf(error)),
  });
  const disable = useMutation({
    mutationFn: disableTwoStep,
    onSuccess: () => {
      reset();
      setPanel('idle');
      setCodes(null);
      toast.success(TwoStepMessages.disabled);
      void refresh();
    },
    onError: (error) => setErrors(fieldErrorsOf(error)),
  });

  const requireCode = (): boolean => {
    if (code.trim()) return true;
    setErrors({ code: TwoStepMessages.codeRequired });
    return false;
  };
  const onConfirm = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (requireCode()) confirm.mutate({ code: code.trim() });
  };
  const onRegenerate = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (requireCode()) regenerate.mutate({ code: code.trim() });
  };
  const onDisable = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!password) {
      setErrors({ currentPassword: 'Enter your password to turn two-step sign-in off.' });
      return;
    }
    if (requireCode()) disable.mutate({ currentPassword: password, code: code.trim() });
  };

  const codeField = (label = 'Authentication code') => (
    <TextField id={ids.code} label={label} name="code" inputMode="numeric" autoComplete="one-time-code" spellCheck={false} value={code} onChange={(e) => setCode(e.target.value)} className="max-w-48" error={errors.code} errorId={ids.codeError} />
  );
  const formError = errors.form ? (
    <p id={ids.formError} role="alert" className="text-sm text-destructive">
      {errors.form}
    </p>
  ) : null;

  const download = () => {
    if (!codes) return;
    const blob = new Blob([`Legacy Vault recovery codes\nEach code signs you in once.\n\n${codes.join('\n')}\n`], { type: 'text/plain' });
    const link = document.createElement('a');
    link.href = URL.createObjectURL(blob);
    link.download = 'legacy-vault-recovery-codes.txt';
    document.body.append(link);
    link.click();
    link.remove();
    URL.revokeObjectURL(link.href);
  };
  const copy = () => {
    if (!codes) return;
    navigator.clipboard.writeText(codes.join('\n')).then(
      () => toast.success('Recovery codes copied.'),
      () => toast.error('The codes could not be copied. Download them instead.'),
    );
  };

  return (
    // Codes and the password typed here are no drafts: leaving the page loses nothing worth a warning.
    <Card data-unsaved-ignore="">
      <CardHeader>
        <CardTitle>Two-step sign-in</CardTitle>
        <CardDescription>
          Ask for a code from an authenticator app on your phone as well as your password, so a stolen password alone cannot open your vault.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {codes ? (
          <section aria-labelledby={ids.codesTitle} className="flex flex-col gap-3 rounded-xl border border-amber-500/50 bg-amber-500/10 p-4">
            <h3 id={ids.codesTitle} className="font-semibold">Your recovery codes</h3>
            <p className="flex items-start gap-2 text-sm font-medium">
              <TriangleAlert aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0" />
              {TwoStepMessages.recoveryCodesWarning}
            </p>
            <ul aria-label="Recovery codes" className="grid grid-cols-2 gap-2 font-mono text-sm">
              {codes.map((c) => (
                <li key={c}>{c}</li>
              ))}
            </ul>
            <div className="flex flex-wrap gap-2">
              <Button type="button" variant="outline" size="sm" onClick={copy}>
                <Copy aria-hidden="true" className="h-4 w-4" />
                Copy codes
              </Button>
              <Button type="button" variant="outline" size="sm" onClick={download}>
                <Download aria-hidden="true" className="h-4 w-4" />
                Download codes
              </Button>
              <Button type="button" size="sm" onClick={() => setCodes(null)}>
                I have saved my codes
              </Button>
            </div>
          </section>
        ) : null}

        {status.isPending ? (
          <Spinner label="Loading two-step sign-in…" />
        ) : status.isError ? (
          <LoadFailed message="Could not load your two-step sign-in." onRetry={() => void status.refetch()} />
        ) : status.data.enabled ? (
          <>
            <p className="flex items-center gap-2 text-sm">
              <ShieldCheck aria-hidden="true" className="h-4 w-4 text-primary" />
              Two-step sign-in is on. {status.data.recoveryCodesLeft === 1 ? '1 recovery code left.' : `${status.data.recoveryCodesLeft} recovery codes left.`}
            </p>
            {panel === 'idle' ? (
              <div className="flex flex-wrap gap-2">
                <Button type="button" variant="outline" onClick={() => { reset(); setPanel('regenerate'); }}>
                  New recovery codes
                </Button>
                <Button type="button" variant="outline" onClick={() => { reset(); setPanel('disable'); }}>
                  Turn off two-step sign-in
                </Button>
              </div>
            ) : panel === 'regenerate' ? (
              <form noValidate aria-label="New recovery codes" onSubmit={onRegenerate} className="flex flex-col gap-3">
                <p className="text-sm text-muted-foreground">Enter the code your authenticator app shows now. Your old recovery codes stop working.</p>
                {codeField()}
                {formError}
                <div className="flex gap-2">
                  <Button type="submit" disabled={regenerate.isPending}>Make new codes</Button>
                  <Button type="button" variant="ghost" onClick={() => { reset(); setPanel('idle'); }}>Cancel</Button>
                </div>
              </form>
            ) : (
              <form noValidate aria-label="Turn off two-step sign-in" onSubmit={onDisable} className="flex flex-col gap-3">
                <p className="text-sm text-muted-foreground">Enter your password and the code your authenticator app shows now (or a recovery code).</p>
                <TextField id={ids.password} label="Your password" name="password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} className="max-w-72" error={errors.currentPassword} errorId={ids.passwordError} />
                {codeField()}
                {formError}
                <div className="flex gap-2">
                  <Button type="submit" variant="destructive" disabled={disable.isPending}>Turn off</Button>
                  <Button type="button" variant="ghost" onClick={() => { reset(); setPanel('idle'); }}>Cancel</Button>
                </div>
              </form>
            )}
          </>
        ) : setup ? (
          <form noValidate aria-label="Set up two-step sign-in" onSubmit={onConfirm} className="flex flex-col gap-4">
            <ol className="list-decimal space-y-1 pl-5 text-sm">
              <li>Scan this QR code with an authenticator app (Google Authenticator, Microsoft Authenticator, 1Password, …).</li>
              <li>Enter the 6-digit code the app shows, then confirm.</li>
            </ol>
            <div className="flex flex-col gap-4 sm:flex-row sm:items-center">
              <Suspense fallback={<Spinner label="Drawing the QR code…" />}>
                <TwoStepQr uri={setup.otpauthUri} />
              </Suspense>
              <div className="text-sm">
                <p id={ids.secret}>Can’t scan it? Enter this key in the app instead:</p>
                <p aria-describedby={ids.secret} className="mt-1 font-mono text-base font-semibold break-all" data-testid="two-step-secret">
                  {grouped(setup.secret)}
                </p>
              </div>
            </div>
            {codeField()}
            {formError}
            <div className="flex gap-2">
              <Button type="submit" disabled={confirm.isPending}>Confirm</Button>
              <Button type="button" variant="ghost" onClick={() => { reset(); setSetup(null); }}>Cancel</Button>
            </div>
          </form>
        ) : (
          <div>
            <Button type="button" onClick={() => start.mutate()} disabled={start.isPending}>
              Set up two-step sign-in
            </Button>
          </div>
        )}
      </CardContent>
    </Card>
  );
}
