import type { z } from 'zod';

/**
 * A BullMQ queue, declared once: its name and the zod schema of its jobs' data. Producers and workers
 * both take the declaration (platform queues: createQueue, createWorker), so the payload type is never
 * restated, a producer refuses data the schema does not pass and a worker validates what it takes.
 */
export interface QueueDeclaration<N extends string = string, S extends z.ZodType = z.ZodType> {
  readonly name: N;
  readonly payload: S;
}

/** Redis keys are `<prefix>:<name>:...`, so a name is lowercase words joined by hyphens. */
const QUEUE_NAME = /^[a-z]+(-[a-z]+)*$/;

export function queue<const N extends string, S extends z.ZodType>(name: N, payload: S): QueueDeclaration<N, S> {
  if (!QUEUE_NAME.test(name)) throw new Error(`queue name ${JSON.stringify(name)} must be lowercase words joined by hyphens`);
  return { name, payload };
}

/** The data a queue's worker receives, once validated. */
export type JobOf<D extends QueueDeclaration> = z.output<D['payload']>;
