import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { toast } from 'sonner';
import { countWords, letterPreview, MilestoneMessages, type Letter } from '@lv/contracts';
import { renderApp, sam, resetApp, quietConsole } from '../../test/app-harness.js';
import { formatDate } from '../../lib/dates.js';
import { LETTER_DRAFT_KEY } from './letter-draft.js';
import { LETTER_TEMPLATES } from './wizard/letter-templates.js';

// /letters in the whole app (router, session, shell, toasts), with the gateway replaced by a small
// in-memory stand-in behind fetch.


interface Call { method: string; url: string; body?: any }

/** The letters API, in memory. `fail` makes the next matching call answer an error. */
function fakeGateway(initial: Letter[] = []) {
  const letters = [...initial];
  const calls: Call[] = [];
  const failures: { method: string; status: number; code: string; message: string }[] = [];
  const json = (status: number, body?: unknown) =>
    new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  const handler = async (input: string, init: RequestInit = {}) => {
    const method = init.method ?? 'GET';
    const url = new URL(input, 'http://vault.test');
    const body = init.body ? JSON.parse(String(init.body)) : undefined;
    calls.push({ method, url: url.pathname + url.search, body });
    const failure = failures.findIndex((f) => f.method === method);
    if (failure >= 0 && url.pathname.startsWith('/api/letters')) {
      const [f] = failures.splice(failure, 1);
      return json(f!.status, { code: f!.code, message: f!.message });
    }
    if (url.pathname === '/api/auth/session') return json(200, { session: null });
    if (url.pathname === '/api/vault/stats') return json(200, { videosSaved: 0, lettersWritten: letters.length, daysActive: 1 });
    if (url.pathname === '/api/letters' && method === 'GET') {
      return json(200, { letters: letters.map(({ content: _c, ...s }) => s), nextCursor: null });
    }
    if (url.pathname === '/api/letters' && method === 'POST') {
      const now = new Date().toISOString();
      const letter: Letter = { id: body.id, title: body.title, content: body.content, preview: letterPreview(body.content), word_count: countWords(body.content), created_at: now, updated_at: now, version: 1 };
      letters.unshift(letter);
      return json(201, letter);
    }
    const sealMatch = /^\/api\/letters\/([^/]+)\/seal$/.exec(url.pathname);
    if (sealMatch) {
      const i = letters.findIndex((l) => l.id === sealMatch[1]);
      if (i < 0) return json(404, { code: 'NOT_FOUND', message: 'Letter not found' });
      const current = letters[i]!;
      if (method === 'PUT' && body.until === '2099-12-31') return json(400, { code: 'VALIDATION_FAILED', message: 'Choose a day within 100 years.', fields: { until: 'Choose a day within 100 years.' } });
      const milestone = method === 'PUT'
        ? { until: body.until, time_zone: body.time_zone, due_at: `${body.until}T00:00:00.000Z`, recipient_name: body.recipient_name, recipient_email: body.recipient_email, status: 'sealed' as const, released_at: null }
        : null;
      letters[i] = { ...current, milestone, version: current.version + 1 };
      return json(200, letters[i]);
    }
    const match = /^\/api\/letters\/([^/]+)$/.exec(url.pathname);
    const index = match ? letters.findIndex((l) => l.id === match[1]) : -1;
    if (index < 0) return json(404, { code: 'NOT_FOUND', message: 'Letter not found' });
    if (method === 'GET') return json(200, letters[index]);
    if (method === 'PUT') {
      const current = letters[index]!;
      if (body.expectedVersion !== current.version) return json(409, { code: 'CONFLICT', message: 'This was changed elsewhere. Reload to see the latest version.' });
      const next = { ...current, title: body.title, content: body.content, preview: letterPreview(body.content), word_count: countWords(body.content), version: current.version + 1 };
      letters[index] = next;
      return json(200, next);
    }
    if (method === 'DELETE') {
      letters.splice(index, 1);
      return new Response(null, { status: 204 });
    }
    return json(405, { code: 'VALIDATION_FAILED', message: 'x' });
  };
  return {
    letters,
    calls,
    fetch: jest.fn(handler),
    fail(method: string, status: number, code: string, message = 'refused') {
      failures.push({ method, status, code, message });
    },
    /** Someone saves the letter in another tab. */
    changeElsewhere(id: string, content: string) {
      const i = letters.findIndex((l) => l.id === id);
      letters[i] = { ...letters[i]!, content, preview: letterPreview(content), version: letters[i]!.version + 1 };
    },
  };
}

const letter = (over: Partial<Letter>): Letter => ({
  id: '0d5f6b3e-4a51-4c7e-9c39-2b7f8d1e6a10', title: 'To Ellie', content: 'Dear Ellie, I think of you.', preview: 'Dear Ellie, I think of you.', word_count: 6,
  created_at: '2026-11-20T10:00:00.000Z', updated_at: '2026-11-20T10:00:00.000Z', version: 1, ...over,
});

let gateway: ReturnType<typeof fakeGateway>;

const renderLetters = () => renderApp('/letters');

const listItem = (title: string) => screen.getByRole('listitem', { name: title });
const openForm = () => fireEvent.click(screen.getByRole('button', { name: 'Write New Letter' }));
const form = () => screen.getByRole('region', { name: 'Write New Letter' });

beforeEach(() => {
  localStorage.clear();
  gateway = fakeGateway([letter({})]);
  (globalThis as { fetch: unknown }).fetch = gateway.fetch;
  quietConsole();
});

afterEach(() => {
  resetApp();
  jest.useRealTimers();
});

describe('Letters Unsent', () => {
  it('lists letters with title, date, word count and the first 100 characters', async () => {
    const long = `${'Remember the lake. '.repeat(8)}And the rain.`;
    gateway.letters.unshift(letter({ id: '1d5f6b3e-4a51-4c7e-9c39-2b7f8d1e6a10', title: 'The lake', content: long, preview: letterPreview(long), word_count: countWords(long), created_at: '2026-11-21T09:00:00.000Z' }));
    renderLetters();
    await screen.findByRole('heading', { level: 1, name: 'Letters Unsent' });
    const items = await screen.findAllByRole('listitem');
    expect(items.map((i) => within(i).getByRole('heading').textContent)).toEqual(['The lake', 'To Ellie']);
    const lake = listItem('The lake');
    expect(lake.textContent).toContain('27 words');
    expect(lake.textContent).toContain(`${letterPreview(long).trimEnd()}…`);
    expect(lake.textContent).not.toContain('And the rain');
    expect(within(lake).getByText(formatDate('2026-11-21T09:00:00.000Z'))).toBeTruthy();
    expect(within(listItem('To Ellie')).getByRole('button', { name: 'View' })).toBeTruthy();
    expect(within(listItem('To Ellie')).getByRole('button', { name: 'Edit' })).toBeTruthy();
    expect(within(listItem('To Ellie')).getByRole('button', { name: 'Delete' })).toBeTruthy();
  });

  it('keeps Save disabled while the title or the body is blank, and saves both trimmed, first in the list', async () => {
    renderLetters();
    await screen.findByRole('listitem', { name: 'To Ellie' });
    openForm();
    const save = within(form()).getByRole('button', { name: 'Save Letter' }) as HTMLButtonElement;
    const title = within(form()).getByLabelText('Title');
    const body = within(form()).getByLabelText('Letter');
    expect(save.disabled).toBe(true);
    fireEvent.change(title, { target: { value: '   ' } });
    fireEvent.change(body, { target: { value: 'Some words' } });
    expect(save.disabled).toBe(true);
    fireEvent.change(title, { target: { value: '  For Sam ' } });
    fireEvent.change(body, { target: { value: ' \n ' } });
    expect(save.disabled).toBe(true);
    fireEvent.change(body, { target: { value: '\n I am proud of you. \n' } });
    expect(save.disabled).toBe(false);
    fireEvent.click(save);
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Write New Letter' })).toBeNull());
    const post = gateway.calls.find((c) => c.method === 'POST')!;
    expect(post.body).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), title: 'For Sam', content: 'I am proud of you.' });
    const items = screen.getAllByRole('listitem');
    expect(within(items[0]!).getByRole('heading').textContent).toBe('For Sam');
    expect(localStorage.getItem(LETTER_DRAFT_KEY)).toBeNull();
  });

  it('keeps the draft under unsaved_letter_draft while typing, restores it when the form reopens, and forgets it on Cancel', async () => {
    renderLetters();
    await screen.findByRole('listitem', { name: 'To Ellie' });
    openForm();
    fireEvent.change(within(form()).getByLabelText('Title'), { target: { value: 'Half a thought' } });
    fireEvent.change(within(form()).getByLabelText('Letter'), { target: { value: 'Dear Sam, I' } });
    expect(JSON.parse(localStorage.getItem(LETTER_DRAFT_KEY)!)).toMatchObject({ title: 'Half a thought', content: 'Dear Sam, I' });
    // The top bar flags the unsaved work.
    await screen.findByText('Unsaved changes');

    // Leave and come back: the form opens with the draft.
    cleanup();
    renderLetters();
    await screen.findByRole('listitem', { name: 'To Ellie' });
    expect(screen.getByText(/You have an unsaved letter draft/)).toBeTruthy();
    openForm();
    expect((within(form()).getByLabelText('Title') as HTMLInputElement).value).toBe('Half a thought');
    expect((within(form()).getByLabelText('Letter') as HTMLTextAreaElement).value).toBe('Dear Sam, I');

    fireEvent.click(within(form()).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('region', { name: 'Write New Letter' })).toBeNull();
    expect(localStorage.getItem(LETTER_DRAFT_KEY)).toBeNull();
    openForm();
    expect((within(form()).getByLabelText('Title') as HTMLInputElement).value).toBe('');
  });

  it('stores the open draft when the shell asks pages to save drafts (saveDrafts)', async () => {
    renderLetters();
    await screen.findByRole('listitem', { name: 'To Ellie' });
    openForm();
    fireEvent.change(within(form()).getByLabelText('Letter'), { target: { value: 'Words I do not want to lose' } });
    localStorage.removeItem(LETTER_DRAFT_KEY);
    act(() => {
      window.dispatchEvent(new CustomEvent('saveDrafts'));
    });
    expect(JSON.parse(localStorage.getItem(LETTER_DRAFT_KEY)!)).toMatchObject({ title: '', content: 'Words I do not want to lose' });
  });

  it('shows a letter’s words as text, never as HTML', async () => {
    const hostile = '<img src=x onerror="window.__pwned=1"><b>bold?</b>\n<script>alert(1)</script>';
    gateway.letters[0] = letter({ title: '<i>Title</i>', content: hostile, preview: hostile });
    renderLetters();
    const item = await screen.findByRole('listitem', { name: '<i>Title</i>' });
    expect(item.querySelector('img, b, script, i')).toBeNull();
    fireEvent.click(within(item).getByRole('button', { name: 'View' }));
    const viewer = await screen.findByRole('dialog', { name: '<i>Title</i>' });
    await within(viewer).findByText((_, el) => el?.textContent === hostile && el.tagName === 'DIV');
    expect(viewer.querySelector('img, b, script, i')).toBeNull();
    expect((window as { __pwned?: number }).__pwned).toBeUndefined();
  });

  it('edits a letter at the version it showed ("Letter updated successfully.")', async () => {
    renderLetters();
    fireEvent.click(within(await screen.findByRole('listitem', { name: 'To Ellie' })).getByRole('button', { name: 'Edit' }));
    const editor = await screen.findByRole('dialog', { name: 'Edit Letter' });
    const body = (await within(editor).findByLabelText('Letter')) as HTMLTextAreaElement;
    expect(body.value).toBe('Dear Ellie, I think of you.');
    fireEvent.change(body, { target: { value: 'Dear Ellie, I think of you every day.' } });
    fireEvent.click(within(editor).getByRole('button', { name: 'Save Changes' }));
    await screen.findByText('Letter updated successfully.');
    expect(gateway.calls.find((c) => c.method === 'PUT')!.body).toEqual({ title: 'To Ellie', content: 'Dear Ellie, I think of you every day.', expectedVersion: 1 });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Edit Letter' })).toBeNull());
    expect(listItem('To Ellie').textContent).toContain('Dear Ellie, I think of you every day.');
  });

  it('explains a conflict (changed elsewhere) instead of overwriting, and Reload brings the latest words', async () => {
    renderLetters();
    fireEvent.click(within(await screen.findByRole('listitem', { name: 'To Ellie' })).getByRole('button', { name: 'Edit' }));
    const editor = await screen.findByRole('dialog', { name: 'Edit Letter' });
    const body = (await within(editor).findByLabelText('Letter')) as HTMLTextAreaElement;
    gateway.changeElsewhere(gateway.letters[0]!.id, 'Saved on the phone.');
    fireEvent.change(body, { target: { value: 'Saved on the laptop.' } });
    fireEvent.click(within(editor).getByRole('button', { name: 'Save Changes' }));
    const alert = await within(editor).findByRole('alert');
    expect(alert.textContent).toContain('This letter was changed elsewhere. Reload to see the latest version.');
    await screen.findByText('Error updating letter');
    expect(gateway.letters[0]!.content).toBe('Saved on the phone.');
    fireEvent.click(within(alert).getByRole('button', { name: 'Reload' }));
    await waitFor(() => expect(body.value).toBe('Saved on the phone.'));
    expect(within(editor).queryByRole('alert')).toBeNull();
    fireEvent.change(body, { target: { value: 'Saved on the phone, and the laptop.' } });
    fireEvent.click(within(editor).getByRole('button', { name: 'Save Changes' }));
    await screen.findByText('Letter updated successfully.');
    expect(gateway.calls.filter((c) => c.method === 'PUT').map((c) => c.body.expectedVersion)).toEqual([1, 2]);
  });

  it('says "Error updating letter" / "Please try again." when a save fails, and "Not authenticated" when the session is gone', async () => {
    renderLetters();
    fireEvent.click(within(await screen.findByRole('listitem', { name: 'To Ellie' })).getByRole('button', { name: 'Edit' }));
    const editor = await screen.findByRole('dialog', { name: 'Edit Letter' });
    await within(editor).findByLabelText('Letter');
    gateway.fail('PUT', 503, 'SERVICE_UNAVAILABLE');
    fireEvent.click(within(editor).getByRole('button', { name: 'Save Changes' }));
    await screen.findByText('Error updating letter');
    expect(screen.getByText('Please try again.')).toBeTruthy();
    gateway.fail('PUT', 401, 'UNAUTHENTICATED', 'Not authenticated');
    fireEvent.click(within(editor).getByRole('button', { name: 'Save Changes' }));
    await screen.findByText('Not authenticated');
  });

  it('deletes after "Are you sure?", and says "Error deleting letter" when that fails', async () => {
    renderLetters();
    const item = await screen.findByRole('listitem', { name: 'To Ellie' });
    gateway.fail('DELETE', 500, 'INTERNAL');
    fireEvent.click(within(item).getByRole('button', { name: 'Delete' }));
    let confirm = await screen.findByRole('alertdialog', { name: 'Are you sure?' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await screen.findByText('Error deleting letter');
    // Nothing was deleted, and the question is still open (the list behind it is hidden from assistive technology meanwhile).
    expect(gateway.letters).toHaveLength(1);
    expect(screen.getByRole('listitem', { name: 'To Ellie', hidden: true })).toBeTruthy();
    confirm = screen.getByRole('alertdialog', { name: 'Are you sure?' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'To Ellie' })).toBeNull());
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(screen.getByText('No letters yet')).toBeTruthy();
  });

  it('walks the wizard: emotion, then purpose after 0.5 s each, "Crafting your letter..." for 2 s, the letter, Start Over, Save Letter', async () => {
    renderLetters();
    await screen.findByRole('listitem', { name: 'To Ellie' });
    fireEvent.click(screen.getByRole('button', { name: 'Write with AI Assistant' }));
    // The wizard's code loads when it is first opened; its steps' timing is then under the fake clock.
    const wizard = await screen.findByRole('dialog', { name: 'Write with AI Assistant' });
    jest.useFakeTimers();
    const step = () => within(wizard).getByRole('list', { name: 'Steps' }).querySelector('[aria-current="step"]')!.textContent;
    expect(step()).toContain('Emotion');
    for (const label of ['Love', 'Sad', 'Frustrated', 'Grateful', 'Unsure']) expect(within(wizard).getByRole('button', { name: new RegExp(`^${label}`) })).toBeTruthy();

    fireEvent.click(within(wizard).getByRole('button', { name: /^Grateful/ }));
    act(() => jest.advanceTimersByTime(499));
    expect(step()).toContain('Emotion');
    act(() => jest.advanceTimersByTime(1));
    expect(step()).toContain('Purpose');
    for (const label of ['Apology', 'Encouragement', 'Memory', 'Advice', 'Care']) expect(within(wizard).getByRole('button', { name: new RegExp(`^${label}`) })).toBeTruthy();

    fireEvent.click(within(wizard).getByRole('button', { name: /^Memory/ }));
    act(() => jest.advanceTimersByTime(500));
    expect(step()).toContain('Draft');
    expect(within(wizard).getByText('Crafting your letter...')).toBeTruthy();
    act(() => jest.advanceTimersByTime(1999));
    expect(within(wizard).getByText('Crafting your letter...')).toBeTruthy();
    act(() => jest.advanceTimersByTime(1));
    const text = within(wizard).getByLabelText('Letter') as HTMLTextAreaElement;
    expect(text.value).toBe(LETTER_TEMPLATES.grateful.memory);

    // Preview shows the words as a letter; Edit goes back to the text.
    fireEvent.change(text, { target: { value: `${LETTER_TEMPLATES.grateful.memory}\n\nP.S. Bring the kite.` } });
    fireEvent.click(within(wizard).getByRole('button', { name: 'Preview' }));
    expect(within(wizard).getByRole('article', { name: 'Letter preview' }).textContent).toContain('P.S. Bring the kite.');
    fireEvent.click(within(wizard).getByRole('button', { name: 'Edit' }));

    // Start Over returns to the emotions.
    fireEvent.click(within(wizard).getByRole('button', { name: 'Start Over' }));
    expect(step()).toContain('Emotion');
    fireEvent.click(within(wizard).getByRole('button', { name: /^Unsure/ }));
    act(() => jest.advanceTimersByTime(500));
    fireEvent.click(within(wizard).getByRole('button', { name: /^Care/ }));
    act(() => jest.advanceTimersByTime(2500));
    expect((within(wizard).getByLabelText('Letter') as HTMLTextAreaElement).value).toBe(LETTER_TEMPLATES.unsure.care);

    jest.useRealTimers();
    gateway.fail('POST', 503, 'SERVICE_UNAVAILABLE');
    fireEvent.click(within(wizard).getByRole('button', { name: 'Save Letter' }));
    await screen.findByText('Error saving letter (AI)');
    fireEvent.click(within(wizard).getByRole('button', { name: 'Save Letter' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Write with AI Assistant' })).toBeNull());
    const posts = gateway.calls.filter((c) => c.method === 'POST');
    expect(posts[1]!.body).toEqual({ id: posts[0]!.body.id, title: `AI-Assisted Letter - ${formatDate(new Date())}`, content: LETTER_TEMPLATES.unsure.care });
    expect(within(screen.getAllByRole('listitem')[0]!).getByRole('heading').textContent).toBe(`AI-Assisted Letter - ${formatDate(new Date())}`);
  });

  it('says "Error saving letter" when a new letter cannot be saved, and keeps the words', async () => {
    renderLetters();
    await screen.findByRole('listitem', { name: 'To Ellie' });
    openForm();
    fireEvent.change(within(form()).getByLabelText('Title'), { target: { value: 'Kept' } });
    fireEvent.change(within(form()).getByLabelText('Letter'), { target: { value: 'Kept words' } });
    gateway.fail('POST', 503, 'SERVICE_UNAVAILABLE');
    fireEvent.click(within(form()).getByRole('button', { name: 'Save Letter' }));
    await screen.findByText('Error saving letter');
    expect((within(form()).getByLabelText('Letter') as HTMLTextAreaElement).value).toBe('Kept words');
    expect(JSON.parse(localStorage.getItem(LETTER_DRAFT_KEY)!)).toMatchObject({ title: 'Kept', content: 'Kept words' });
    // The retry is the same letter (same id): a save that did land the first time is not made twice.
    fireEvent.click(within(form()).getByRole('button', { name: 'Save Letter' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Write New Letter' })).toBeNull());
    const posts = gateway.calls.filter((c) => c.method === 'POST');
    expect(posts[1]!.body.id).toBe(posts[0]!.body.id);
  });

  describe('Seal until a date', () => {
    const openEditor = async (title = 'To Ellie') => {
      fireEvent.click(within(await screen.findByRole('listitem', { name: title })).getByRole('button', { name: 'Edit' }));
      const editor = await screen.findByRole('dialog', { name: 'Edit Letter' });
      await within(editor).findByLabelText('Letter');
      return editor;
    };
    const sealedMilestone = { until: '2034-05-14', time_zone: 'Europe/London', due_at: '2034-05-13T23:00:00.000Z', recipient_name: 'Ellie', recipient_email: 'ellie@example.com', released_at: null };

    it('names what is missing or wrong with the server’s words, and sends nothing until it is right', async () => {
      renderLetters();
      const editor = await openEditor();
      expect(within(editor).queryByLabelText('Open on')).toBeNull();
      fireEvent.click(within(editor).getByRole('checkbox', { name: 'Seal until a date' }));
      fireEvent.click(within(editor).getByRole('button', { name: 'Seal Letter' }));
      expect(within(editor).getByText(MilestoneMessages.untilRequired)).toBeTruthy();
      expect(within(editor).getByText(MilestoneMessages.nameRequired)).toBeTruthy();
      expect(within(editor).getByText(MilestoneMessages.emailRequired)).toBeTruthy();
      expect(within(editor).getByLabelText('Open on').getAttribute('aria-invalid')).toBe('true');
      fireEvent.change(within(editor).getByLabelText('Open on'), { target: { value: '2020-01-01' } });
      fireEvent.change(within(editor).getByLabelText('Recipient’s name'), { target: { value: 'Ellie' } });
      fireEvent.change(within(editor).getByLabelText('Recipient’s email'), { target: { value: 'ellie' } });
      fireEvent.click(within(editor).getByRole('button', { name: 'Seal Letter' }));
      expect(within(editor).getByText(MilestoneMessages.untilInFuture)).toBeTruthy();
      expect(within(editor).getByText(MilestoneMessages.emailInvalid)).toBeTruthy();
      expect(gateway.calls.filter((c) => c.url.endsWith('/seal'))).toEqual([]);
      // A refusal only the server knows is shown by its field too.
      fireEvent.change(within(editor).getByLabelText('Open on'), { target: { value: '2099-12-31' } });
      fireEvent.change(within(editor).getByLabelText('Recipient’s email'), { target: { value: 'ellie@example.com' } });
      fireEvent.click(within(editor).getByRole('button', { name: 'Seal Letter' }));
      expect(await within(editor).findByText('Choose a day within 100 years.')).toBeTruthy();
    });

    it('seals the letter for its recipient in the owner’s time zone, shows the badge, and the words’ save goes on from the new version', async () => {
      renderLetters();
      const editor = await openEditor();
      fireEvent.click(within(editor).getByRole('checkbox', { name: 'Seal until a date' }));
      fireEvent.change(within(editor).getByLabelText('Open on'), { target: { value: '2034-05-14' } });
      fireEvent.change(within(editor).getByLabelText('Recipient’s name'), { target: { value: '  Ellie ' } });
      fireEvent.change(within(editor).getByLabelText('Recipient’s email'), { target: { value: 'ellie@example.com' } });
      fireEvent.click(within(editor).getByRole('button', { name: 'Seal Letter' }));
      await screen.findByText(MilestoneMessages.sealed);
      const sent = gateway.calls.find((c) => c.method === 'PUT' && c.url.endsWith('/seal'))!;
      expect(sent.body).toEqual({ until: '2034-05-14', time_zone: Intl.DateTimeFormat().resolvedOptions().timeZone, recipient_name: 'Ellie', recipient_email: 'ellie@example.com' });
      const badge = 'Sealed until 14 May 2034 for Ellie';
      expect(await within(editor).findByText(badge)).toBeTruthy();
      expect(within(editor).getByRole('button', { name: 'Update Seal' })).toBeTruthy();
      fireEvent.change(within(editor).getByLabelText('Letter'), { target: { value: 'Dear Ellie, happy birthday.' } });
      fireEvent.click(within(editor).getByRole('button', { name: 'Save Changes' }));
      await screen.findByText('Letter updated successfully.');
      expect(gateway.calls.find((c) => c.method === 'PUT' && !c.url.endsWith('/seal'))!.body).toMatchObject({ expectedVersion: 2 });
      await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Edit Letter' })).toBeNull());
      expect(within(listItem('To Ellie')).getByText(badge)).toBeTruthy();
    });

    it('tells an owner whose address is unverified why a seal waits for it, and shows the server’s refusal in its words', async () => {
      renderApp('/letters', { ...sam, emailVerified: false });
      const editor = await openEditor();
      expect(within(editor).queryByRole('note')).toBeNull();
      fireEvent.click(within(editor).getByRole('checkbox', { name: 'Seal until a date' }));
      expect(within(editor).getByRole('note').textContent).toBe(MilestoneMessages.verifyEmailFirst);
      fireEvent.change(within(editor).getByLabelText('Open on'), { target: { value: '2034-05-14' } });
      fireEvent.change(within(editor).getByLabelText('Recipient’s name'), { target: { value: 'Ellie' } });
      fireEvent.change(within(editor).getByLabelText('Recipient’s email'), { target: { value: 'ellie@example.com' } });
      gateway.fail('PUT', 403, 'EMAIL_NOT_VERIFIED', MilestoneMessages.verifyEmailFirst);
      const shown = jest.spyOn(toast, 'error');
      fireEvent.click(within(editor).getByRole('button', { name: 'Seal Letter' }));
      await waitFor(() => expect(shown).toHaveBeenCalledWith(MilestoneMessages.verifyEmailFirst));
      expect(within(editor).getByLabelText('Recipient’s name')).toHaveProperty('value', 'Ellie');
    });

    it('removes a seal before its day, and shows a delivered letter’s seal as final', async () => {
      gateway.letters.splice(0, 1, letter({ milestone: { ...sealedMilestone, status: 'sealed' } }), letter({ id: '2d5f6b3e-4a51-4c7e-9c39-2b7f8d1e6a10', title: 'Delivered', milestone: { ...sealedMilestone, status: 'released', released_at: '2034-05-13T23:00:05.000Z' } }));
      renderLetters();
      const editor = await openEditor();
      fireEvent.click(within(editor).getByRole('button', { name: 'Remove Seal' }));
      await screen.findByText(MilestoneMessages.unsealed);
      expect(gateway.calls.find((c) => c.method === 'DELETE' && c.url.endsWith('/seal'))).toBeTruthy();
      expect(within(editor).getByRole('checkbox', { name: 'Seal until a date' })).toBeTruthy();
      fireEvent.click(within(editor).getByRole('button', { name: 'Cancel' }));
      await waitFor(() => expect(listItem('To Ellie').textContent).not.toContain('Sealed until'));

      const delivered = await openEditor('Delivered');
      expect(within(delivered).getByText(/^Delivered to Ellie on /)).toBeTruthy();
      expect(within(delivered).getByText(MilestoneMessages.released)).toBeTruthy();
      expect(within(delivered).queryByRole('button', { name: 'Remove Seal' })).toBeNull();
      expect(within(delivered).queryByLabelText('Open on')).toBeNull();
    });
  });
});
