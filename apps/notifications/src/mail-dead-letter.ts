import type { Logger } from '@lv/platform/logging';

/** The entity a mail job names is not committed by the service that queued the job (yet, or ever): the job retries, then gives up. */
export class NotCommittedYet extends Error {}

/**
 * What a job out of attempts leaves of its entity's e-mail. 'record': recorded failed, for good (an
 * entity whose id is fresh on each attempt of the command that queued it: one that never committed
 * is never named again). 'leave-open': where a retried command names the same entity again (a
 * request's id from its submission id, a step of a committed delivery), a job whose entity never
 * committed is only logged, and the entity's row stays pending (or absent), so the job of the attempt
 * that commits still sends. A job that ran out for any other reason (SMTP kept failing) is recorded
 * failed either way.
 */
export type NeverCommittedRule = 'record' | 'leave-open';

export interface MailDeadLetterOptions<J> {
  what: string;
  logger: Pick<Logger, 'error' | 'warn'>;
  neverCommitted: NeverCommittedRule;
  recordFailed: (job: J, attempts: number, reason: string) => Promise<void>;
  idOf: (job: J) => Record<string, string>;
}

/** The worker's handler of a job out of attempts (or failed for good). */
export function mailDeadLetter<J>({ what, logger, neverCommitted, recordFailed, idOf }: MailDeadLetterOptions<J>) {
  return (job: { id?: string; attemptsMade: number }, error: Error, data: J | null): Promise<void> => {
    const fields = { ...(data && idOf(data)), jobId: job.id, attempts: job.attemptsMade, err: error };
    if (neverCommitted === 'leave-open' && error instanceof NotCommittedYet) {
      logger.warn(fields, `${what} gave up: what it names never committed; nothing recorded, a job of the attempt that commits still sends`);
      return Promise.resolve();
    }
    logger.error(fields, `${what} failed for good`);
    // A job whose data did not pass its schema names nothing to record against: the log and the failed set keep it.
    if (!data) return Promise.resolve();
    return recordFailed(data, job.attemptsMade, error.message).catch((err: unknown) => logger.error({ err }, `could not record a failed ${what}`));
  };
}
