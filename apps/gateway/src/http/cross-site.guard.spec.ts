import { edgeRefusal, parseOrigins, type EdgePolicy, type EdgeRequest } from './cross-site.guard.js';

const policy: EdgePolicy = { extraOrigins: [], secure: false };
const request = (overrides: Partial<EdgeRequest> & { headers?: EdgeRequest['headers'] }): EdgeRequest => ({
  method: 'POST',
  path: '/api/auth/sign-in',
  ownOrigin: 'http://127.0.0.1:3000',
  ...overrides,
  headers: { 'content-type': 'application/json', 'content-length': '40', ...overrides.headers },
});

describe('edge refusal: cross-site requests', () => {
  it('refuses a state-changing request the browser marks cross-site, whatever its Origin', () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      expect(edgeRefusal(request({ method, headers: { 'sec-fetch-site': 'cross-site' } }), policy)).toBe('CROSS_SITE_REFUSED');
      expect(edgeRefusal(request({ method, headers: { 'sec-fetch-site': 'cross-site', origin: 'http://127.0.0.1:3000' } }), policy)).toBe('CROSS_SITE_REFUSED');
    }
  });

  it("refuses an Origin that is not the app's own, and the opaque null", () => {
    for (const origin of ['https://evil.example', 'http://127.0.0.1:3001', 'https://127.0.0.1:3000', 'null', 'http://127.0.0.1']) {
      expect(edgeRefusal(request({ headers: { origin } }), policy)).toBe('CROSS_SITE_REFUSED');
    }
  });

  it('lets same-origin and header-less (non-browser) requests through, and reads never', () => {
    expect(edgeRefusal(request({ headers: { origin: 'http://127.0.0.1:3000', 'sec-fetch-site': 'same-origin' } }), policy)).toBeNull();
    expect(edgeRefusal(request({ headers: { origin: 'http://127.0.0.1:3000/' } }), policy)).toBeNull();
    expect(edgeRefusal(request({ ownOrigin: 'http://localhost:80', headers: { origin: 'http://LOCALHOST' } }), policy)).toBeNull();
    expect(edgeRefusal(request({ ownOrigin: 'http://bad host', headers: { origin: 'http://bad host' } }), policy)).toBe('CROSS_SITE_REFUSED');
    expect(edgeRefusal(request({}), policy)).toBeNull();
    expect(edgeRefusal(request({ method: 'GET', headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site', 'content-length': undefined } }), policy)).toBeNull();
  });

  it('accepts configured origins, and https on the same host behind TLS', () => {
    expect(edgeRefusal(request({ headers: { origin: 'https://vault.example' } }), { extraOrigins: ['https://vault.example'], secure: false })).toBeNull();
    expect(edgeRefusal(request({ headers: { origin: 'https://127.0.0.1:3000' } }), { extraOrigins: [], secure: true })).toBeNull();
    expect(edgeRefusal(request({ headers: { origin: 'https://evil.example' } }), { extraOrigins: [], secure: true })).toBe('CROSS_SITE_REFUSED');
  });

  it('leaves the SPA paths alone', () => {
    expect(edgeRefusal(request({ path: '/vault', headers: { origin: 'https://evil.example', 'content-type': 'text/plain' } }), policy)).toBeNull();
  });
});

describe('edge refusal: JSON bodies only', () => {
  it('refuses form, multipart, text and missing content types on a body', () => {
    for (const type of ['application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'text/plain', 'application/jsonx', undefined]) {
      expect(edgeRefusal(request({ headers: { 'content-type': type } }), policy)).toBe('JSON_REQUIRED');
    }
    expect(edgeRefusal(request({ headers: { 'content-type': 'text/plain', 'content-length': undefined, 'transfer-encoding': 'chunked' } }), policy)).toBe('JSON_REQUIRED');
  });

  it('accepts JSON with parameters and case, and bodiless requests of any type', () => {
    expect(edgeRefusal(request({ headers: { 'content-type': 'Application/JSON; charset=utf-8' } }), policy)).toBeNull();
    expect(edgeRefusal(request({ headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': '0' } }), policy)).toBeNull();
    expect(edgeRefusal(request({ headers: { 'content-type': undefined, 'content-length': undefined } }), policy)).toBeNull();
  });

  it("lets the recording's byte stream through, and only that", () => {
    expect(edgeRefusal(request({ method: 'PUT', path: '/api/media/uploads/0d6f3c5e-9c1b-4a43-9f55-1f0b5d0e2c11', headers: { 'content-type': 'video/webm' } }), policy)).toBeNull();
    expect(edgeRefusal(request({ method: 'POST', path: '/api/media/uploads', headers: { 'content-type': 'video/webm' } }), policy)).toBe('JSON_REQUIRED');
    expect(edgeRefusal(request({ method: 'PUT', path: '/api/media/uploads/x/y', headers: { 'content-type': 'video/webm' } }), policy)).toBe('JSON_REQUIRED');
    // The byte stream is still refused from another site.
    expect(edgeRefusal(request({ method: 'PUT', path: '/api/media/uploads/abc', headers: { 'content-type': 'video/webm', origin: 'https://evil.example' } }), policy)).toBe('CROSS_SITE_REFUSED');
  });

  it("lets a court document's byte stream through, and no other court body that is not JSON", () => {
    for (const type of ['application/pdf', 'image/png', 'text/plain', 'application/octet-stream']) {
      expect(edgeRefusal(request({ method: 'PUT', path: '/api/court/uploads/0d6f3c5e-9c1b-4a43-9f55-1f0b5d0e2c11', headers: { 'content-type': type } }), policy)).toBeNull();
    }
    expect(edgeRefusal(request({ method: 'POST', path: '/api/court/uploads', headers: { 'content-type': 'application/pdf' } }), policy)).toBe('JSON_REQUIRED');
    expect(edgeRefusal(request({ method: 'PATCH', path: '/api/court/documents/abc', headers: { 'content-type': 'text/plain' } }), policy)).toBe('JSON_REQUIRED');
    expect(edgeRefusal(request({ method: 'PUT', path: '/api/court/uploads/x/y', headers: { 'content-type': 'application/pdf' } }), policy)).toBe('JSON_REQUIRED');
    expect(edgeRefusal(request({ method: 'PUT', path: '/api/court/uploads/abc', headers: { 'content-type': 'application/pdf', 'sec-fetch-site': 'cross-site' } }), policy)).toBe('CROSS_SITE_REFUSED');
  });
});

describe('APP_ORIGINS', () => {
  it('normalises origins and refuses what is not one', () => {
    expect(parseOrigins(' https://Vault.Example/ , http://localhost:5173')).toEqual(['https://vault.example', 'http://localhost:5173']);
    expect(parseOrigins('')).toEqual([]);
    expect(() => parseOrigins('not a url')).toThrow();
  });
});
