import { afterEach, describe, expect, it } from '@jest/globals';
import { cleanup, screen, within } from '@testing-library/react';
import { PLANS, tierIncludes } from '@lv/contracts';
import { renderApp, resetApp } from '../../test/app-harness.js';
import { featurePlansNote, VAULT_FEATURES } from './LandingPage.js';

afterEach(() => {
  cleanup();
  resetApp();
});

describe('the landing page’s feature list ("Keep Your Vault Alive")', () => {
  it('names the plans of each line only some plans include, from the plan table, and none for a line every plan gives', () => {
    for (const { feature } of VAULT_FEATURES) {
      const everyPlan = feature === null || PLANS.every((plan) => tierIncludes(plan.tier, feature));
      const note = featurePlansNote(feature);
      if (everyPlan) expect(note).toBeNull();
      else for (const plan of PLANS) expect(note!.includes(plan.name)).toBe(tierIncludes(plan.tier, feature!));
    }
    expect(featurePlansNote('community')).toBe('Pro and Legacy plans');
    expect(featurePlansNote('letters')).toBeNull();
  });

  it('shows the spec’s six lines to a visitor, with the plans that give them and whose choice the music is', async () => {
    renderApp('/', null);
    const list = await screen.findByRole('list', { name: 'What the plans include' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((item) => item.firstChild?.nextSibling?.firstChild?.textContent)).toEqual([
      'Unlimited message storage', 'Parent Circle access', 'HD video and audio recording', 'Music library', 'Scheduled message delivery', 'Writing assistance',
    ]);
    const line = (text: string) => items.find((item) => item.textContent?.startsWith(text))!.textContent;
    expect(line('Parent Circle access')).toBe('Parent Circle accessPro and Legacy plans');
    expect(line('HD video and audio recording')).toBe('HD video and audio recordingPro and Legacy plans');
    expect(line('Music library')).toBe('Music libraryPro and Legacy plans; tracks chosen by the people who run this Legacy Vault');
    expect(line('Writing assistance')).toBe('Writing assistance');
  });
});
