import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { uploadsInFlight } from '../api/uploads-in-flight.js';
import { UploadStatus } from './UploadStatus.js';

// The shell's list of saves still going on: shown on every page but the one that started them, with
// progress, a lost connection, and a failed save's "Try again".

function renderOn(path: string) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <UploadStatus />
    </MemoryRouter>,
  );
}

afterEach(() => {
  cleanup();
  for (const upload of uploadsInFlight.snapshot()) uploadsInFlight.remove(upload.key);
});

describe('UploadStatus', () => {
  it('shows nothing without saves, and nothing on the page that started one (it shows its own)', () => {
    const { container } = renderOn('/record');
    expect(container.innerHTML).toBe('');
    act(() => uploadsInFlight.update('vault:aa', { title: 'For Sam', page: '/record', loaded: 10, total: 100 }));
    expect(container.innerHTML).toBe('');
  });

  it('shows a save elsewhere with its progress, then a lost connection, and goes when it is saved', () => {
    renderOn('/timeline');
    act(() => uploadsInFlight.update('vault:aa', { title: 'For Sam', page: '/record', loaded: 45, total: 100 }));
    const uploads = screen.getByRole('region', { name: 'Uploads' });
    expect(within(uploads).getByRole('status').textContent).toContain('For Sam');
    expect(within(uploads).getByText('Saving… 45%')).toBeTruthy();
    expect(within(uploads).getByLabelText('Saving For Sam').getAttribute('value')).toBe('45');
    act(() => uploadsInFlight.update('vault:aa', { title: 'For Sam', page: '/record', state: 'reconnecting' }));
    expect(within(uploads).getByText('Connection lost. Trying again…')).toBeTruthy();
    act(() => uploadsInFlight.remove('vault:aa'));
    expect(screen.queryByRole('region', { name: 'Uploads' })).toBeNull();
  });

  it('offers a failed save "Try again" (its retry) and "Dismiss"', () => {
    const retry = jest.fn();
    renderOn('/vault');
    act(() => uploadsInFlight.update('vault:bb', { title: 'A voice note', page: '/record', state: 'failed', retry }));
    expect(screen.getByText('Not saved yet.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(retry).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('region', { name: 'Uploads' })).toBeNull();
  });
});
