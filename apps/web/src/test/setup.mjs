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
