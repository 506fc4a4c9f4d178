import { backupOverdue, type BackupRun } from './backup-status.js';

const DAY = 86_400_000;
const run = (finishedAt: string, ok = true): BackupRun => ({
  startedAt: finishedAt, finishedAt, durationMs: 1000, ok, snapshot: ok ? 'abc' : null, sizeBytes: ok ? 10 : null, removedSnapshots: ok ? 0 : null, errorCode: ok ? null : 'BACKUP_WRONG_PASSWORD', error: null,
});
const at = (iso: string) => Date.parse(iso);

describe('a scheduled backup is overdue', () => {
  it('once its last success is older than 1.5 intervals, and not a moment before', () => {
    const status = { everyMs: DAY, since: '2026-12-01T00:00:00.000Z', lastSuccess: run('2026-12-06T00:00:00.000Z') };
    expect(backupOverdue(status, at('2026-12-07T00:00:00.000Z'))).toBe(false);
    expect(backupOverdue(status, at('2026-12-07T12:00:00.000Z'))).toBe(false);
    expect(backupOverdue(status, at('2026-12-07T12:00:00.001Z'))).toBe(true);
  });

  it('1.5 intervals after the schedule started when it never succeeded', () => {
    const status = { everyMs: DAY, since: '2026-12-06T00:00:00.000Z', lastSuccess: null };
    expect(backupOverdue(status, at('2026-12-07T11:59:59.000Z'))).toBe(false);
    expect(backupOverdue(status, at('2026-12-07T12:00:01.000Z'))).toBe(true);
  });
});
