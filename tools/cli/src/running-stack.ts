import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** What the stack running from this checkout recorded in .data/stack.json (it may use private instances and a STACK_ID). */
export interface RunningStack {
  natsUrl?: string;
  redisUrl?: string;
  stackId?: string;
  mediaUrl?: string;
  postgresUrl?: string;
  dbPrefix?: string;
  s3Endpoint?: string;
}

export function runningStack(cwd = process.cwd()): RunningStack {
  try {
    return JSON.parse(readFileSync(join(cwd, '.data', 'stack.json'), 'utf8')) as RunningStack;
  } catch {
    return {}; // no running stack here: the default addresses
  }
}
