import { useMutation } from '@tanstack/react-query';
import { CircleCheck, CircleX } from 'lucide-react';
import { errorMessage } from '../../api/client.js';
import { runDeliveryChecks } from '../../api/if-im-not-there.js';
import { Button } from '../../components/ui/button.js';
import { usePageTitle } from '../../lib/use-page-title.js';

/**
 * /test-vault-delivery ("Vault Delivery Settings Test"): runs the delivery pipeline's integration
 * checks against the running services for the signed-in owner's vault (settings, contacts, the
 * delivery queue and its worker, the key e-mail worker, and the rules on his own settings: never
 * early, exactly once) and shows each passed or failed. Nothing is written.
 */
export function TestVaultDeliveryPage() {
  usePageTitle('Vault Delivery Settings Test');
  const checks = useMutation({ mutationFn: runDeliveryChecks });
  const passed = checks.data?.filter((c) => c.passed).length ?? 0;
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-6 px-4 py-10">
      <header>
        <h1 className="font-serif text-4xl font-semibold tracking-tight">Vault Delivery Settings Test</h1>
        <p className="mt-2 text-muted-foreground">Checks, against the running services, that your vault would be delivered as your settings say: never early, exactly once.</p>
      </header>
      <Button className="self-start" disabled={checks.isPending} onClick={() => checks.mutate()}>
        {checks.isPending ? 'Running…' : 'Run Integration Tests'}
      </Button>
      {checks.isError ? <p role="alert">{errorMessage(checks.error, 'The checks could not run. Please try again.')}</p> : null}
      {checks.data ? (
        <section aria-label="Test results" className="flex flex-col gap-3">
          <p role="status">
            {passed} of {checks.data.length} passed
          </p>
          <ul className="flex flex-col gap-2">
            {checks.data.map((check) => (
              <li key={check.name} aria-label={`${check.name}: ${check.passed ? 'passed' : 'failed'}`} className="flex items-start gap-3 rounded-xl border border-border bg-card p-3">
                {check.passed ? <CircleCheck aria-hidden="true" className="mt-0.5 h-5 w-5 text-primary" /> : <CircleX aria-hidden="true" className="mt-0.5 h-5 w-5 text-destructive" />}
                <div>
                  <p className="font-medium">
                    {check.name} <span className={check.passed ? 'text-primary' : 'text-destructive'}>{check.passed ? 'passed' : 'failed'}</span>
                  </p>
                  <p className="text-sm text-muted-foreground">{check.detail}</p>
                </div>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}
