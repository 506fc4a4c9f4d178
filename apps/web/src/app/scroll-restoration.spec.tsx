import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Link, MemoryRouter, Route, Routes, useNavigate } from 'react-router-dom';
import { ScrollRestoration } from './scroll-restoration.js';

let scrollY = 0;
const scrollTo = jest.fn((_x: number, y: number) => {
  scrollY = y;
});

function scrollBy(y: number) {
  scrollY = y;
  fireEvent.scroll(window);
}

function Back() {
  const navigate = useNavigate();
  return (
    <button type="button" onClick={() => void navigate(-1)}>
      Back
    </button>
  );
}

function renderPages(start = '/long') {
  render(
    <MemoryRouter initialEntries={[start]} useTransitions={false}>
      <ScrollRestoration />
      <Routes>
        <Route path="/long" element={<Link to="/other">Other</Link>} />
        <Route path="/other" element={<><Back /><Link to="/long#part-2">Part 2</Link></>} />
      </Routes>
      <h2 id="part-2">Part 2</h2>
    </MemoryRouter>,
  );
}

beforeEach(() => {
  scrollY = 0;
  scrollTo.mockClear();
  sessionStorage.clear();
  Object.defineProperty(window, 'scrollY', { configurable: true, get: () => scrollY });
  window.scrollTo = scrollTo as unknown as typeof window.scrollTo;
  Element.prototype.scrollIntoView = () => undefined;
});
afterEach(cleanup);

describe('ScrollRestoration', () => {
  it('opens a new address at the top and returns Back to where that page was left', () => {
    renderPages();
    scrollBy(640);
    fireEvent.click(screen.getByRole('link', { name: 'Other' }));
    expect(scrollTo).toHaveBeenLastCalledWith(0, 0);
    scrollBy(120);
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(scrollTo).toHaveBeenLastCalledWith(0, 640);
  });

  it('remembers a page left without scrolling at the top, whatever the page before it was', () => {
    renderPages();
    scrollBy(640);
    fireEvent.click(screen.getByRole('link', { name: 'Other' }));
    fireEvent.click(screen.getByRole('link', { name: 'Part 2' }));
    fireEvent.click(screen.getByRole('link', { name: 'Other' }));
    scrollTo.mockClear();
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    // Back to /long#part-2, which was never scrolled after its hash: where the hash left it (0 here).
    expect(scrollTo).toHaveBeenLastCalledWith(0, 0);
  });

  it('opens an address with a #hash at that element', () => {
    const scrollIntoView = jest.fn();
    Element.prototype.scrollIntoView = scrollIntoView;
    renderPages();
    fireEvent.click(screen.getByRole('link', { name: 'Other' }));
    fireEvent.click(screen.getByRole('link', { name: 'Part 2' }));
    expect(scrollIntoView).toHaveBeenCalledTimes(1);
    expect(scrollIntoView.mock.contexts[0]).toBe(document.getElementById('part-2'));
  });

  it('gives a page opened afresh its own place, never the one another opened page was left at', () => {
    // Both open with the history key "default" (typed, or a link from outside the app).
    renderPages('/other');
    scrollBy(900);
    act(() => {
      window.dispatchEvent(new Event('pagehide'));
    });
    cleanup();
    scrollTo.mockClear();
    renderPages('/long');
    expect(scrollTo).toHaveBeenLastCalledWith(0, 0);
    // The same address opened again (a reload) returns to where it was left.
    cleanup();
    renderPages('/other');
    expect(scrollTo).toHaveBeenLastCalledWith(0, 900);
  });

  it('keeps the positions in sessionStorage when the page is left, for a reload', () => {
    renderPages();
    scrollBy(300);
    act(() => {
      window.dispatchEvent(new Event('pagehide'));
    });
    expect(Object.values(JSON.parse(sessionStorage.getItem('lv-scroll-positions') ?? '{}') as Record<string, number>)).toEqual([300]);
  });
});
