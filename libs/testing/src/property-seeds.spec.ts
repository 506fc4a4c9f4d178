import { jest } from '@jest/globals';
import { FIXED_PROPERTY_SEED, propertySeeds } from './property-seeds.js';

describe('property seeds', () => {
  const quiet = () => jest.spyOn(console, 'log').mockImplementation(() => undefined);
  afterEach(() => jest.restoreAllMocks());

  it('runs the fixed seed and a new one, and prints both with how to replay the new one', () => {
    const log = quiet();
    const first = propertySeeds('spec-a', {});
    const second = propertySeeds('spec-a', {});
    expect(first.all).toEqual([FIXED_PROPERTY_SEED, first.fresh]);
    // Two draws from 2^31 values: equal about once in two billion runs.
    expect(second.fresh).not.toBe(first.fresh);
    expect(log).toHaveBeenCalledWith(expect.stringContaining(`${FIXED_PROPERTY_SEED} (fixed) and ${first.fresh} (this run); PROPERTY_SEED=${first.fresh} replays`));
  });

  it('replays the run PROPERTY_SEED names, and refuses one that is not an integer', () => {
    quiet();
    expect(propertySeeds('spec-b', { PROPERTY_SEED: '424242' }).all).toEqual([FIXED_PROPERTY_SEED, 424242]);
    expect(() => propertySeeds('spec-b', { PROPERTY_SEED: 'abc' })).toThrow('PROPERTY_SEED must be an integer, not "abc"');
  });
});
