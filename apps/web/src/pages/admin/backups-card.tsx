import { useQuery } from '@tanstack/react-query';
import type { BackupRun, BackupVerifyStatus } from '@lv/contracts';
import { adminKeys, fetchAdminBackups } from '../../api/admin.js';
import { errorMessage } from '../../api/client.js';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.js';
import { LoadFailed } from '../../components/ui/load-failed.js';
import { formatDateTime } from '../../lib/dates.js';
import { formatBytes } from './charts.js';

const HOUR = 3_600_000;

/** The schedule in words: "every day", "every 12 hours", "every 30 minutes". */
export function scheduleWords(everyMs: number): string {
  if (everyMs === 24 * HOUR) return 'every day';
  if (everyMs === 7 * 24 * HOUR) return 'every week';
  if (everyMs === HOUR) return 'every hour';
  if (everyMs % (24 * HOUR) === 0) return `every ${everyMs / (24 * HOUR)} days`;
  if (everyMs % HOUR === 0) return `every ${everyMs / HOUR} hours`;
  return `every ${Math.round(everyMs / 60_000)} minutes`;
}

/** A run's duration: "4.2 s", "3 min 5 s", "1 h 2 min". */
export function durationWords(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
  return `${Math.floor(seconds / 3600)} h ${Math.floor((seconds % 3600) / 60)} min`;
}

/** A run's facts as a term list, named for screen readers ("Last backup", "Last verify"). */
function RunFacts({ label, rows }: { label: string; rows: { term: string; value: string }[] }) {
  return (
    <dl aria-label={label} className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-1 text-sm">
      {rows.map((row) => (
        <div key={row.term} className="contents">
          <dt className="text-muted-foreground">{row.term}</dt>
          <dd className="break-all">{row.value}</dd>
        </div>
      ))}
    </dl>
  );
}

function LastRun({ run }: { run: BackupRun }) {
  return (
    <RunFacts
      label="Last backup"
      rows={[
        { term: 'When', value: formatDateTime(run.finishedAt) },
        { term: 'Size', value: run.sizeBytes === null ? '—' : formatBytes(run.sizeBytes) },
        { term: 'Duration', value: durationWords(run.durationMs) },
        { term: 'Result', value: run.ok ? 'Succeeded' : `Failed (${run.errorCode ?? 'BACKUP_FAILED'})` },
      ]}
    />
  );
}

const when = (schedule: { everyMs: number; pattern?: string }) =>
  schedule.pattern ? `at the times of the cron expression "${schedule.pattern}" (UTC)` : scheduleWords(schedule.everyMs);

/**
 * The scheduled drill (backup:verify of the newest snapshot): its schedule and next run, what the last one read
 * back, and the differences it found or why it could not run.
 */
function VerifySection({ verify }: { verify: BackupVerifyStatus | undefined }) {
  if (!verify) return <p className="text-sm text-muted-foreground">The newest backup is not restored and checked on a schedule (BACKUP_VERIFY_SCHEDULE is off).</p>;
  const last = verify.last;
  return (
    <section aria-labelledby="backup-verify-heading" className="flex flex-col gap-2 border-t pt-3">
      <h3 id="backup-verify-heading" className="text-sm font-semibold">Restore check</h3>
      <p className="text-sm text-muted-foreground">
        The newest backup is restored into scratch copies and checked against its manifest {when(verify)}.
        {verify.nextRunAt ? ` Next check: ${formatDateTime(verify.nextRunAt)}.` : ''}
      </p>
      {last ? (
        <RunFacts
          label="Last verify"
          rows={[
            { term: 'When', value: formatDateTime(last.finishedAt) },
            { term: 'Snapshot', value: last.snapshot ? last.snapshot.slice(0, 8) : '—' },
            { term: 'Read back', value: last.objects === null || last.rows === null ? '—' : `${last.objects} files, ${last.rows} rows` },
            { term: 'Duration', value: durationWords(last.durationMs) },
            { term: 'Result', value: last.ok ? 'Matches its manifest' : `Failed (${last.errorCode ?? 'BACKUP_FAILED'})` },
          ]}
        />
      ) : (
        <p className="text-sm">No restore check has run yet.</p>
      )}
      {last && !last.ok ? (
        <div role="alert" className="flex flex-col gap-1 font-medium text-destructive">
          <p>The last restore check failed: {last.errorCode ?? 'BACKUP_FAILED'}.</p>
          {last.mismatches.length ? (
            <ul className="list-disc pl-5 text-sm font-normal break-all">
              {last.mismatches.map((mismatch) => <li key={mismatch}>{mismatch}</li>)}
            </ul>
          ) : last.error ? <p className="text-sm font-normal break-all">{last.error}</p> : null}
        </div>
      ) : null}
    </section>
  );
}

/**
 * The scheduled backup on /admin: its schedule and next run, the last run (when, size, duration, result), a line that says
 * so when none has run, the last one failed, or one is overdue (no success within 1.5 intervals), and its restore check.
 */
export function BackupsCard() {
  const backups = useQuery({ queryKey: adminKeys.backups, queryFn: ({ signal }) => fetchAdminBackups(signal) });
  return (
    <Card>
      <CardHeader>
        <CardTitle>Backups</CardTitle>
        <CardDescription>The scheduled backup of every database, stored file and key.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        {backups.isPending ? (
          <p role="status">Loading backups...</p>
        ) : backups.isError ? (
          <LoadFailed message={errorMessage(backups.error, 'Could not load the backups.')} onRetry={() => void backups.refetch()} />
        ) : !backups.data.status ? (
          <p>No scheduled backup is set up (the worker has no BACKUP_REPOSITORY).</p>
        ) : (
          <>
            <p className="text-sm text-muted-foreground">
              Runs {when(backups.data.status)}.
            </p>
            {backups.data.status.nextRunAt ? <p className="text-sm text-muted-foreground">Next backup: {formatDateTime(backups.data.status.nextRunAt)}.</p> : null}
            {backups.data.status.last ? <LastRun run={backups.data.status.last} /> : <p>No backup has run yet.</p>}
            {backups.data.status.last && !backups.data.status.last.ok ? (
              <p role="alert" className="font-medium text-destructive">
                The last backup failed: {backups.data.status.last.errorCode ?? 'BACKUP_FAILED'}.
              </p>
            ) : null}
            {backups.data.overdue ? (
              <p role="alert" className="font-medium text-destructive">
                A backup is overdue: {backups.data.status.lastSuccess ? `the last one that succeeded finished ${formatDateTime(backups.data.status.lastSuccess.finishedAt)}` : 'none has succeeded yet'}.
              </p>
            ) : null}
            <VerifySection verify={backups.data.status.verify} />
          </>
        )}
      </CardContent>
    </Card>
  );
}
