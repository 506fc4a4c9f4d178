// jsdom without the fetch API: React Router's data router builds a Request for every navigation.
// Hand the test window Node's own fetch classes, with Node's AbortController so a Request accepts
// the router's signal (the same approach as the jest-fixed-jsdom package).
import JSDOMEnvironment from 'jest-environment-jsdom';

export default class JSDOMWithFetchEnvironment extends JSDOMEnvironment {
  constructor(...args) {
    super(...args);
    const g = this.global;
    for (const name of ['fetch', 'Request', 'Response', 'Headers', 'FormData', 'AbortController', 'AbortSignal', 'TextEncoder', 'TextDecoder', 'ReadableStream', 'structuredClone', 'BroadcastChannel']) {
      if (name in globalThis) g[name] = globalThis[name];
    }
    // jsdom's crypto has no SubtleCrypto; browsers have it in a secure context (SHA-256 of recordings, of the viewer's consent).
    if (!g.crypto?.subtle) Object.defineProperty(g, 'crypto', { value: globalThis.crypto, configurable: true, writable: true });
  }
}
