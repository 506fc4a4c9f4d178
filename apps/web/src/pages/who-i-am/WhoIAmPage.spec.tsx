import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MediaMessages, PortraitMessages, type Portrait, type Recording } from '@lv/contracts';
import { jsonResponse as json, quietConsole, renderApp, resetApp } from '../../test/app-harness.js';
import { formOf, isChanged, requestOf } from './portrait-form.js';

// /whoiam in the whole app, the gateway replaced by a stand-in behind fetch.

const EMPTY: Portrait = { about_me: '', personality_traits: [], favorite_music: '', favorite_films: '', core_values: [], updated_at: null };

function fakeGateway(initial: Portrait) {
  let portrait = initial;
  const saves: Record<string, unknown>[] = [];
  let failNext: { status: number; body: unknown } | null = null;
  const media: Recording[] = [];
  const mediaCalls: { method: string; path: string; body?: unknown }[] = [];
  const failing = new Set<string>();
  const handler = async (input: string, init: RequestInit = {}) => {
    const url = new URL(input, 'http://vault.test');
    const method = init.method ?? 'GET';
    if (url.pathname === '/api/auth/session') return json(200, { session: null });
    if (url.pathname.startsWith('/api/media/')) {
      mediaCalls.push({ method, path: url.pathname, body: init.body ? JSON.parse(String(init.body)) : undefined });
      if (failing.has(method)) return json(503, { code: 'SERVICE_UNAVAILABLE', message: 'The vault is temporarily unavailable.' });
      if (url.pathname === '/api/media/recordings') return json(200, media.filter((m) => m.collection === url.searchParams.get('collection')));
      const id = url.pathname.split('/').at(-1)!;
      const item = media.find((m) => m.id === id)!;
      if (method === 'PATCH') {
        item.title = (JSON.parse(String(init.body)) as { title: string }).title.trim();
        return json(200, item);
      }
      if (method === 'DELETE') {
        media.splice(media.indexOf(item), 1);
        return new Response(null, { status: 204 });
      }
      if (url.pathname.endsWith('/playback')) return json(200, { url: `/api/media/play/${id}?u=u1&exp=1&sig=s`, expiresAt: Date.now() + 3600_000 });
    }
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
    media,
    mediaCalls,
    failing,
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

  describe('profile photo and personal media', () => {
    const item = (id: string, title: string, type: Recording['type'], collection: Recording['collection']): Recording => ({
      id, type, file_type: type, title, file_path: `u1/${type}_1`, content_type: type === 'image' ? 'image/png' : 'audio/mpeg', size: 10, blob_hash: 'a'.repeat(64),
      integrity: 'verified', collection, created_at: '2026-11-25T09:00:00.000Z', timestamp: '2026-11-25T09:00:00.000Z',
    });

    it('shows the photo and the personal media from the vault, each titled', async () => {
      gateway.media.push(item('11111111-1111-4111-8111-111111111111', 'Profile photo', 'image', 'who-i-am-photo'), item('22222222-2222-4222-8222-222222222222', 'Our song', 'audio', 'who-i-am'));
      renderWhoIAm();
      expect(await screen.findByRole('img', { name: 'Your profile photo' })).toBeTruthy();
      const list = await screen.findByRole('list', { name: 'Personal media' });
      expect(within(list).getByRole('listitem', { name: 'Our song' })).toBeTruthy();
      expect(screen.queryByText('No personal media yet.')).toBeNull();
    });

    it('refuses a photo that is not an image, and a file of a kind it cannot keep, sending nothing', async () => {
      renderWhoIAm();
      await screen.findByText('No personal media yet.');
      fireEvent.change(screen.getByLabelText('Profile photo'), { target: { files: [new File(['%PDF-1.7'], 'scan.pdf', { type: 'application/pdf' })] } });
      await screen.findByText(MediaMessages.photoMustBeImage);
      fireEvent.change(screen.getByLabelText('Media title'), { target: { value: 'My scan' } });
      fireEvent.change(screen.getByLabelText('Media file'), { target: { files: [new File(['%PDF-1.7'], 'scan.pdf', { type: 'application/pdf' })] } });
      fireEvent.click(screen.getByRole('button', { name: 'Upload' }));
      await screen.findByText(MediaMessages.unsupportedFile);
      expect(gateway.mediaCalls.filter((c) => c.method !== 'GET')).toEqual([]);
    });

    it('asks for a title before uploading personal media', async () => {
      renderWhoIAm();
      await screen.findByText('No personal media yet.');
      fireEvent.change(screen.getByLabelText('Media file'), { target: { files: [new File(['ID3'], 'song.mp3', { type: 'audio/mpeg' })] } });
      fireEvent.click(screen.getByRole('button', { name: 'Upload' }));
      await screen.findByText(MediaMessages.missingInfo);
      expect(gateway.mediaCalls.filter((c) => c.method !== 'GET')).toEqual([]);
    });

    it('retitles an item ("Could not update image title" when the vault refuses) and deletes one after confirming', async () => {
      gateway.media.push(item('33333333-3333-4333-8333-333333333333', 'Beach day', 'image', 'who-i-am'));
      renderWhoIAm();
      const list = await screen.findByRole('list', { name: 'Personal media' });
      gateway.failing.add('PATCH');
      fireEvent.click(within(list).getByRole('button', { name: 'Rename Beach day' }));
      fireEvent.change(within(list).getByLabelText('New title'), { target: { value: 'Beach day, 2019' } });
      fireEvent.click(within(list).getByRole('button', { name: 'Save Title' }));
      await screen.findByText(MediaMessages.retitleFailed);
      gateway.failing.clear();
      fireEvent.click(within(list).getByRole('button', { name: 'Save Title' }));
      await within(list).findByRole('listitem', { name: 'Beach day, 2019' });
      expect(gateway.mediaCalls.find((c) => c.method === 'PATCH')).toMatchObject({ path: '/api/media/recordings/33333333-3333-4333-8333-333333333333', body: { title: 'Beach day, 2019' } });

      gateway.failing.add('DELETE');
      fireEvent.click(within(list).getByRole('button', { name: 'Delete Beach day, 2019' }));
      fireEvent.click(within(await screen.findByRole('alertdialog', { name: 'Delete this item?' })).getByRole('button', { name: 'Delete' }));
      await screen.findByText(MediaMessages.deleteFailed);
      gateway.failing.clear();
      fireEvent.click(within(screen.getByRole('alertdialog', { name: 'Delete this item?' })).getByRole('button', { name: 'Delete' }));
      await screen.findByText('No personal media yet.');
    });
  });
});
