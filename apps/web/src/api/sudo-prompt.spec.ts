/** @jest-environment node */
import { describe, expect, it } from '@jest/globals';
import { SudoPrompt } from './sudo-prompt.js';

describe('SudoPrompt', () => {
  it('opens once for refusals that arrive together, and settles them all with the same answer', async () => {
    const prompt = new SudoPrompt();
    const seen: boolean[] = [];
    prompt.subscribe(() => seen.push(prompt.isOpen()));
    const first = prompt.request();
    const second = prompt.request();
    expect(prompt.isOpen()).toBe(true);
    prompt.settle(true);
    await expect(Promise.all([first, second])).resolves.toEqual([true, true]);
    expect(prompt.isOpen()).toBe(false);
    expect(seen).toEqual([true, false]);
  });

  it('asks afresh after a cancel, and ignores a settle with nothing waiting', async () => {
    const prompt = new SudoPrompt();
    prompt.settle(true);
    const cancelled = prompt.request();
    prompt.settle(false);
    await expect(cancelled).resolves.toBe(false);
    const again = prompt.request();
    expect(prompt.isOpen()).toBe(true);
    prompt.settle(true);
    await expect(again).resolves.toBe(true);
  });
});
