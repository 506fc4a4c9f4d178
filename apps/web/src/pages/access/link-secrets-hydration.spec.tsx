import { afterEach, describe, expect, it } from '@jest/globals';
import { act } from 'react';
import { createRoot, hydrateRoot, type Root } from 'react-dom/client';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { useLinkSecrets } from './link-secrets.js';

// A key link to a prerendered page (/access#k=…&owner=…, issue 35): the build rendered /access with no
// link; the browser takes that markup over with one. The first render must match the markup (a
// mismatch is a console error, and React throws the markup away), and the link is read right after.

function KeyLinkPage() {
  const { key, owner } = useLinkSecrets();
  return <p>{key ? `Key for ${owner ?? 'someone'}` : 'Enter your key'}</p>;
}

const at = (path: string) => (
  <MemoryRouter initialEntries={[path]}>
    <Routes>
      <Route path="/access" element={<KeyLinkPage />} />
    </Routes>
  </MemoryRouter>
);

let root: Root | null = null;
afterEach(() => {
  act(() => root?.unmount());
  root = null;
  document.body.innerHTML = '';
});

describe('a key link to a prerendered page', () => {
  it('hydrates the markup as it was prerendered, then shows the link', async () => {
    const scratch = document.createElement('div');
    const once = createRoot(scratch);
    act(() => once.render(at('/access')));
    const markup = scratch.innerHTML;
    act(() => once.unmount());
    expect(markup).toBe('<p>Enter your key</p>');

    const container = document.createElement('div');
    container.innerHTML = markup;
    document.body.append(container);
    const recovered: unknown[] = [];
    await act(async () => {
      root = hydrateRoot(container, at('/access#k=LV-ABCD-EFGH&owner=o1'), { onRecoverableError: (error) => void recovered.push(error) });
    });
    expect(recovered).toEqual([]);
    expect(container.textContent).toBe('Key for o1');
  });
});
