import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { TrusteeMessages, type TrusteeReportKind } from '@lv/contracts';
import { errorMessage } from '../../api/client.js';
import { ifImNotThereKeys } from '../../api/if-im-not-there.js';
import { fetchTrusteeReport, trusteeKeys, vetoTrusteeReport } from '../../api/trustees.js';
import { Button } from '../../components/ui/button.js';
import { formatDateTime } from '../../lib/dates.js';

/** What was reported, said to the owner himself. */
export const TO_OWNER: Record<TrusteeReportKind, string> = { died: 'have passed away', incapacitated: 'are incapacitated (e.g. in hospital)' };

/**
 * A trustee's report under way: who reported what, and "I'm still here", which ends it (the delivery it
 * started is cancelled and the reporter cannot report again for 30 days). Nothing shows without one.
 */
export function TrusteeReportBanner() {
  const queryClient = useQueryClient();
  const open = useQuery({
    queryKey: trusteeKeys.report,
    queryFn: ({ signal }) => fetchTrusteeReport(signal),
    retry: false,
  });
  const veto = useMutation({
    mutationFn: vetoTrusteeReport,
    onSuccess: () => {
      // The history refetches with the report closed.
      void queryClient.invalidateQueries({ queryKey: trusteeKeys.report });
      void queryClient.invalidateQueries({ queryKey: ifImNotThereKeys.delivery });
    },
  });
  if (veto.isSuccess) return <p role="status">{TrusteeMessages.vetoed}</p>;
  const report = open.data?.report;
  if (!report) return null;
  return (
    <section role="alert" aria-label="Trustee report" className="flex flex-col gap-3 rounded-2xl border border-destructive p-4">
      <p className="font-medium">{`${report.trusteeName} reported that you ${TO_OWNER[report.kind]}.`}</p>
      {report.note ? <p className="text-sm">{`Their note: ${report.note}`}</p> : null}
      <p className="text-sm text-muted-foreground">{`Unless you answer, your vault is delivered no earlier than ${formatDateTime(report.vetoEndsAt)}.`}</p>
      {veto.isError ? <p className="text-destructive">{errorMessage(veto.error, 'Could not record your answer. Please try again.')}</p> : null}
      <Button className="self-start" disabled={veto.isPending} onClick={() => veto.mutate()}>
        I&apos;m still here
      </Button>
    </section>
  );
}
