import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { PortraitMessages, type Portrait } from '@lv/contracts';
import { jsonResponse as json, quietConsole, renderApp, resetApp } from '../../test/app-harness.js';
import { formOf, isChanged, requestOf } from './portrait-form.js';

// /whoiam in the whole app, the gateway replaced by a stand-in behind fetch.

const EMPTY: Portrait = { about_me: '', personality_traits: [], favorite_music: '', favorite_films: '', core_values: [], updated_at: null };

function fakeGateway(initial: Portrait) {
  let portrait = initial;
  const saves: Record<string, unknown>[] = [];
  let failNext: { status: number; body: unknown } | null = null;
  const handler = async (input: string, init: RequestInit = {}) => {
    const url = new URL(input, 'http://vault.test');
    if (url.pathname === '/api/auth/refresh') return json(401, { code: 'UNAUTHENTICATED', message: 'Not authenticated' });
    if (url.pathname !== '/api/who-i-am') return json(404, { code: 'NOT_FOUND', message: 'Not found' });
    if ((init.method ?? 'GET') === 'GET') return json(200, portrait);
    const body = JSON.parse(String(init.body)) as Record<string, unknown>;
    saves.push(body);
    if (failNext) {
      const failure = failNext;
      failNext = null;
      return json(failure.status, failure.body);
    }
    portrait = { ...(body as Omit<Portrait, 'updated_at'>), updated_at: '2026-11-25T12:00:00.000Z' };
    return json(200, portrait);
  };
  return {
    saves,
    fetch: jest.fn(handler),
    failNextSave(status: number, body: unknown) {
      failNext = { status, body };
    },
  };
}

let gateway: ReturnType<typeof fakeGateway>;

const renderWhoIAm = () => renderApp('/whoiam');

const useGateway = (initial: Portrait) => {
  gateway = fakeGateway(initial);
  (globalThis as { fetch: unknown }).fetch = gateway.fetch;
};

beforeEach(() => {
  useGateway(EMPTY);
  quietConsole();
});

afterEach(resetApp);

describe('Who I Am (/whoiam)', () => {
  it('shows the saved portrait in labelled fields', async () => {
    useGateway({ about_me: 'A father of two.', personality_traits: ['Kind', 'Patient'], favorite_music: 'Nick Drake', favorite_films: 'Paddington', core_values: ['honesty', 'courage'], updated_at: '2026-11-25T10:00:00.000Z' });
    renderWhoIAm();
    const about = (await screen.findByLabelText('About Me')) as HTMLTextAreaElement;
    expect(about.value).toBe('A father of two.');
    const traits = screen.getByRole('group', { name: 'Personality Traits' });
    expect(within(traits).getAllByRole('checkbox').map((box) => (box as HTMLInputElement).checked)).toEqual([true, false, false, true, false, false]);
    expect((screen.getByLabelText('Favorite Music') as HTMLInputElement).value).toBe('Nick Drake');
    expect((screen.getByLabelText('Favorite Films') as HTMLInputElement).value).toBe('Paddington');
    expect((screen.getByRole('textbox', { name: 'Core value 2' }) as HTMLInputElement).value).toBe('courage');
  });

  it('saves every field with Save Profile, empty core values ignored, and says so', async () => {
    renderWhoIAm();
    fireEvent.change(await screen.findByLabelText('About Me'), { target: { value: 'I fix bikes on Sundays.' } });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Funny' }));
    fireEvent.change(screen.getByLabelText('Favorite Films'), { target: { value: 'Paddington 2' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Core value 1' }), { target: { value: 'kindness' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add Value' }));
    fireEvent.click(screen.getByRole('button', { name: 'Add Value' }));
    fireEvent.change(screen.getByRole('textbox', { name: 'Core value 3' }), { target: { value: ' patience ' } });
    const page = screen.getByRole('form', { name: 'Who I Am' });
    expect(within(page).getByText('Unsaved changes')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Save Profile' }));
    await screen.findByText(PortraitMessages.saved);
    expect(gateway.saves).toEqual([{ about_me: 'I fix bikes on Sundays.', personality_traits: ['Funny'], favorite_music: '', favorite_films: 'Paddington 2', core_values: ['kindness', 'patience'] }]);
    // The form now shows what the vault holds: the empty box is gone.
    await waitFor(() => expect(screen.queryByRole('textbox', { name: 'Core value 3' })).toBeNull());
    expect(within(page).queryByText('Unsaved changes')).toBeNull();
    // Nor does the shell's unsaved-work check count what is saved.
    const { hasFilledFields } = await import('../../shell/unsaved.js');
    expect(hasFilledFields(page)).toBe(false);
  });

  it('keeps what was typed and says "Save failed." with the reason when the save is refused', async () => {
    renderWhoIAm();
    fireEvent.change(await screen.findByLabelText('About Me'), { target: { value: 'Words to keep.' } });
    gateway.failNextSave(400, { code: 'VALIDATION_FAILED', message: PortraitMessages.aboutMeTooLong });
    fireEvent.click(screen.getByRole('button', { name: 'Save Profile' }));
    await screen.findByText(PortraitMessages.saveFailed);
    expect(screen.getByText(PortraitMessages.aboutMeTooLong)).toBeTruthy();
    expect((screen.getByLabelText('About Me') as HTMLTextAreaElement).value).toBe('Words to keep.');
  });

  it('removes a core value, leaving one empty box to type in', async () => {
    useGateway({ ...EMPTY, core_values: ['honesty'], updated_at: '2026-11-25T10:00:00.000Z' });
    renderWhoIAm();
    fireEvent.click(await screen.findByRole('button', { name: 'Remove core value 1' }));
    expect((screen.getByRole('textbox', { name: 'Core value 1' }) as HTMLInputElement).value).toBe('');
  });
});

describe('portrait form', () => {
  it('sends traits in the page’s order and no empty values, and compares by what would be saved', () => {
    const saved: Portrait = { ...EMPTY, core_values: ['honesty'] };
    const form = { ...formOf(saved), traits: ['Thoughtful', 'Kind'] as const, coreValues: ['honesty', ' '] };
    expect(requestOf({ ...form, traits: [...form.traits] })).toEqual({ about_me: '', personality_traits: ['Kind', 'Thoughtful'], favorite_music: '', favorite_films: '', core_values: ['honesty'] });
    expect(isChanged({ ...formOf(saved), coreValues: ['honesty', ''] }, saved)).toBe(false);
    expect(isChanged({ ...formOf(saved), aboutMe: 'new' }, saved)).toBe(true);
    expect(formOf(EMPTY).coreValues).toEqual(['']);
  });
});
