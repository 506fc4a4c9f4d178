import { randomInt } from 'node:crypto';

/** The seed every run repeats, so a history that passes today is checked again tomorrow. */
export const FIXED_PROPERTY_SEED = 20_261_206;

export interface PropertySeeds {
  /** Every run's: FIXED_PROPERTY_SEED. */
  fixed: number;
  /** A new one per run, or PROPERTY_SEED's to replay a run that failed. */
  fresh: number;
  /** Both, fixed first: what the spec runs. */
  all: [number, number];
}

/**
 * The seeds of a random property spec: a fixed one, and a new one per run so each run explores other
 * histories. Both are printed (and the spec puts the seed in what it asserts), so a failure is
 * replayed with `PROPERTY_SEED=<seed>`.
 */
export function propertySeeds(spec: string, env: NodeJS.ProcessEnv = process.env): PropertySeeds {
  const replay = env.PROPERTY_SEED;
  const fresh = replay === undefined || replay === '' ? randomInt(2 ** 31 - 1) : Number(replay);
  if (!Number.isSafeInteger(fresh)) throw new Error(`PROPERTY_SEED must be an integer, not "${replay}"`);
  console.log(`${spec}: property seeds ${FIXED_PROPERTY_SEED} (fixed) and ${fresh} (${replay ? 'PROPERTY_SEED' : 'this run'}); PROPERTY_SEED=${fresh} replays this run`);
  return { fixed: FIXED_PROPERTY_SEED, fresh, all: [FIXED_PROPERTY_SEED, fresh] };
}
