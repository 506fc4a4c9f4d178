import { afterEach, describe, expect, it } from '@jest/globals';
import { cleanup, render, screen } from '@testing-library/react';
import type { ComponentType } from 'react';
import { CommunityMessages } from '@lv/contracts';
import { TodaysTrackLoader } from './TodaysTrackLoader.js';

afterEach(cleanup);

describe("the vault home's Listen Now loader", () => {
  it('shows a spinner, then the track once its code is here', async () => {
    type Module = { TodaysTrack: ComponentType };
    let arrive!: (module: Module) => void;
    const load = () => new Promise<Module>((resolve) => (arrive = resolve));
    render(<TodaysTrackLoader load={load} />);
    expect(screen.getByRole('status', { name: 'Loading music tracks' })).toBeTruthy();
    arrive({ TodaysTrack: () => <p>Today: Quiet Morning</p> });
    expect(await screen.findByText('Today: Quiet Morning')).toBeTruthy();
  });

  it('says the tracks could not be loaded when its code does not arrive, inside the card, not as a page error', async () => {
    render(<TodaysTrackLoader load={() => Promise.reject(new TypeError('Failed to fetch dynamically imported module'))} />);
    expect((await screen.findByRole('alert')).textContent).toBe(CommunityMessages.failedToLoadTracks);
  });
});
