import { afterEach, describe, expect, it } from '@jest/globals';
import { act, useState } from 'react';
import { createRoot, hydrateRoot, type Root } from 'react-dom/client';
import { Input, Textarea } from './input.js';

// A prerendered form (issue 35, typing before the page is interactive): what is typed before React
// takes the page over is the form's, once it has.

/** A controlled form; what it holds is shown beside the fields, as its state has it. */
function SignInForm() {
  const [email, setEmail] = useState('');
  const [note, setNote] = useState('');
  return (
    <form>
      <Input aria-label="Email" value={email} onChange={(e) => setEmail(e.target.value)} />
      <Textarea aria-label="Note" value={note} onChange={(e) => setNote(e.target.value)} />
      <output data-held="email">{email}</output>
      <output data-held="note">{note}</output>
    </form>
  );
}

const held = (container: HTMLElement) => ({
  email: container.querySelector('[data-held="email"]')?.textContent,
  note: container.querySelector('[data-held="note"]')?.textContent,
});

/** The form's markup as the build prerenders it (the same render; no session, no browser state). */
function prerendered(): HTMLDivElement {
  const scratch = document.createElement('div');
  const once = createRoot(scratch);
  act(() => once.render(<SignInForm />));
  const markup = scratch.innerHTML;
  act(() => once.unmount());
  const container = document.createElement('div');
  container.innerHTML = markup;
  document.body.append(container);
  return container;
}

let root: Root | null = null;
afterEach(() => {
  act(() => root?.unmount());
  root = null;
  document.body.innerHTML = '';
});

describe('a prerendered field', () => {
  it('takes typing before hydration, and the form holds what was typed once React owns it', async () => {
    const container = prerendered();
    const email = container.querySelector('input')!;
    const note = container.querySelector('textarea')!;
    expect(email.readOnly).toBe(false);
    expect(note.readOnly).toBe(false);
    // The visitor types while the page's code is still on its way.
    email.value = 'sam@example.com';
    note.value = 'Typed early';

    await act(async () => {
      root = hydrateRoot(container, <SignInForm />);
    });
    expect(held(container)).toEqual({ email: 'sam@example.com', note: 'Typed early' });
    expect(email.value).toBe('sam@example.com');
    expect(note.value).toBe('Typed early');
  });

  it('leaves a field nobody typed into as the form has it', async () => {
    const container = prerendered();
    await act(async () => {
      root = hydrateRoot(container, <SignInForm />);
    });
    expect(held(container)).toEqual({ email: '', note: '' });
    expect(container.querySelector('input')!.value).toBe('');
  });
});
