import { useQuery } from '@tanstack/react-query';
import { TRUSTEE_REPORT_OUTCOME_LABELS } from '@lv/contracts';
import { fetchTrusteeReport, trusteeKeys } from '../../api/trustees.js';
import { formatDateTime } from '../../lib/dates.js';
import { TO_OWNER } from './TrusteeReportBanner.js';

/**
 * Every trustee report so far, newest first: who reported what and when, and how it ended (open until
 * the veto window ends, or withdrawn by the owner's "I'm still here", a sign-in or a check-in).
 * It shares the banner's query, so it loads once.
 */
export function TrusteeReportHistory() {
  const reports = useQuery({ queryKey: trusteeKeys.report, queryFn: ({ signal }) => fetchTrusteeReport(signal), retry: false });
  const history = reports.data?.history ?? [];
  // "Now" is when the history was fetched (render stays pure): a window that ended since shows so on the next fetch.
  const fetchedAt = reports.dataUpdatedAt;
  return (
    <div className="flex flex-col gap-2">
      <h3 className="font-medium">Report history</h3>
      {reports.isSuccess && history.length === 0 ? <p className="text-sm text-muted-foreground">No trustee has reported anything.</p> : null}
      {history.length ? (
        <ul aria-label="Report history" className="flex flex-col gap-2">
          {history.map((entry) => (
            <li key={entry.reportId} className="rounded-xl border p-3 text-sm">
              <p>{`${entry.trusteeName || 'A trustee'} reported that you ${TO_OWNER[entry.kind]}, on ${formatDateTime(entry.reportedAt)}.`}</p>
              <p className="text-muted-foreground">
                {entry.closedBy && entry.closedAt
                  ? `${TRUSTEE_REPORT_OUTCOME_LABELS[entry.closedBy]}, on ${formatDateTime(entry.closedAt)}.`
                  : Date.parse(entry.vetoEndsAt) > fetchedAt
                    ? `${TRUSTEE_REPORT_OUTCOME_LABELS.open}: nothing is released before ${formatDateTime(entry.vetoEndsAt)}.`
                    : `The waiting time ended on ${formatDateTime(entry.vetoEndsAt)}.`}
              </p>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
