// Jest (jsdom) setup: the browser APIs that jsdom lacks and React Router, Radix and sonner touch.
import { TextDecoder, TextEncoder } from 'node:util';

class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}

const g = globalThis;
if (!g.TextEncoder) g.TextEncoder = TextEncoder;
if (!g.TextDecoder) g.TextDecoder = TextDecoder;
if (!g.ResizeObserver) g.ResizeObserver = ResizeObserverStub;
if (typeof window !== 'undefined') {
  window.scrollTo = () => undefined;
  if (!Element.prototype.scrollIntoView) Element.prototype.scrollIntoView = () => undefined;
  if (!Element.prototype.hasPointerCapture) Element.prototype.hasPointerCapture = () => false;
  if (!Element.prototype.releasePointerCapture) Element.prototype.releasePointerCapture = () => undefined;
}
// React 19: act() support without warnings.
g.IS_REACT_ACT_ENVIRONMENT = true;

// A page's first render in a spec file loads its lazy route chunk; on a loaded two-core CI machine
// that can take longer than Testing Library's 1 s default for findBy*/waitFor (5 s was passed by the first
// test of two spec files in a CI run with other work on the machine: the page module is transformed then).
// Only a failing wait lasts this long.
const { configure } = await import('@testing-library/react');
configure({ asyncUtilTimeout: 15000 });

// The reader's language in specs is en-GB, the app's default (jsdom's navigator says en-US): the pages'
// words are checked as a British reader sees them. lib/dates.spec.ts changes it to check other locales.
if (typeof navigator !== 'undefined') Object.defineProperty(navigator, 'language', { get: () => 'en-GB', configurable: true });

// The pages import Radix from its umbrella package, and since the first load no longer holds it (the
// shell's Button dropped Radix's Slot), its first import happens inside lazily loaded pages. Jest's ESM
// loader (vm modules) fails a dynamic import whose graph another dynamic import is still linking
// ("request for '@radix-ui/...' is from a module not been linked"); linking it here first avoids that.
// The browser's bundles are not concerned.
await import('radix-ui');
