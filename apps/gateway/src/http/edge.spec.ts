import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCheck, toHealthReport } from '../health/health-check.js';
import { isApiPath, prerenderedPageFile, resolveSpaFile, themeInitHash } from '../spa/spa-files.js';
import { isWellFormedRequestId, requestIdFor } from './request-id.js';
import { bearerToken } from './request-context.js';

describe('request ids', () => {
  it('honours a well-formed incoming id', () => {
    expect(requestIdFor({ headers: { 'x-request-id': 'abc-123_x.y:z' } })).toBe('abc-123_x.y:z');
  });

  it('replaces a missing or malformed one with a fresh uuid', () => {
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
    expect(requestIdFor({ headers: {} })).toMatch(uuid);
    expect(requestIdFor({ headers: { 'x-request-id': 'has space' } })).toMatch(uuid);
    expect(requestIdFor({ headers: { 'x-request-id': 'line\nbreak' } })).toMatch(uuid);
    expect(requestIdFor({ headers: { 'x-request-id': 'x'.repeat(200) } })).toMatch(uuid);
    expect(isWellFormedRequestId('')).toBe(false);
  });
});

describe('bearerToken', () => {
  it('reads Authorization: Bearer <token>', () => {
    expect(bearerToken('Bearer abc.def.ghi')).toBe('abc.def.ghi');
    expect(bearerToken('bearer abc')).toBe('abc');
    expect(bearerToken('Basic dXNlcg==')).toBeUndefined();
    expect(bearerToken('Bearer ')).toBeUndefined();
    expect(bearerToken(undefined)).toBeUndefined();
  });
});

describe('SPA file resolution', () => {
  let root: string;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'lv-spa-'));
    await mkdir(join(root, 'assets'));
    await writeFile(join(root, 'index.html'), '<html></html>');
    await writeFile(join(root, 'assets', 'app-1.js'), '');
    await writeFile(join(root, '.env'), 'SECRET=1');
    await writeFile(join(tmpdir(), 'lv-outside.txt'), 'outside');
  });

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('finds files under the root', async () => {
    await expect(resolveSpaFile(root, '/index.html')).resolves.toBe('index.html');
    await expect(resolveSpaFile(root, '/assets/app-1.js')).resolves.toBe('assets/app-1.js');
    await expect(resolveSpaFile(root, '/assets/app%2D1.js')).resolves.toBe('assets/app-1.js');
  });

  it('does not treat routes, directories, dotfiles or escapes as files', async () => {
    await expect(resolveSpaFile(root, '/vault')).resolves.toBeNull();
    await expect(resolveSpaFile(root, '/')).resolves.toBeNull();
    await expect(resolveSpaFile(root, '/assets')).resolves.toBeNull();
    await expect(resolveSpaFile(root, '/.env')).resolves.toBeNull();
    await expect(resolveSpaFile(root, '/../lv-outside.txt')).resolves.toBeNull();
    await expect(resolveSpaFile(root, '/%2e%2e/lv-outside.txt')).resolves.toBeNull();
    await expect(resolveSpaFile(root, '/%E0%A4%A')).resolves.toBeNull();
    await expect(resolveSpaFile(root, '/a%00b')).resolves.toBeNull();
  });

  it('names the prerendered page of an exact address without a query, and none for any other', () => {
    expect(prerenderedPageFile('/')).toBe('prerendered/index.html');
    expect(prerenderedPageFile('/auth')).toBe('prerendered/auth.html');
    expect(prerenderedPageFile('/how-it-works')).toBe('prerendered/how-it-works.html');
    for (const url of ['/auth?mode=signup', '/?utm=x', '/index', '/auth/', '/vault/view', '/Auth', '/..', '/a%2fb', '']) {
      expect(prerenderedPageFile(url)).toBeNull();
    }
  });

  it("gives the CSP source of the built theme-init.js's exact text, and null when the build has none", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lv-theme-init-'));
    try {
      expect(themeInitHash(dir)).toBeNull();
      await writeFile(join(dir, 'theme-init.js'), "document.documentElement.classList.add('dark');\n");
      // sha256 of those 48 bytes, as `printf ... | openssl dgst -sha256 -binary | base64` gives it.
      expect(themeInitHash(dir)).toBe("'sha256-lbCsH+/QVPmBVkrSqzNnx0qIifyuHLvHdNl7LpmBkgM='");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('knows which paths belong to the API', () => {
    expect(isApiPath('/api')).toBe(true);
    expect(isApiPath('/api/me')).toBe(true);
    expect(isApiPath('/apiary')).toBe(false);
    expect(isApiPath('/vault')).toBe(false);
  });
});

describe('health checks', () => {
  it('reports up with a detail and latency', async () => {
    await expect(runCheck(async () => 'fine')).resolves.toMatchObject({ status: 'up', detail: 'fine', latencyMs: expect.any(Number) });
  });

  it('reports down with the reason when the probe fails', async () => {
    await expect(runCheck(async () => { throw new Error('connection refused'); })).resolves.toMatchObject({ status: 'down', detail: 'connection refused' });
  });

  it('never waits longer than its deadline', async () => {
    const started = Date.now();
    const result = await runCheck(() => new Promise<void>(() => undefined), 100);
    expect(result).toMatchObject({ status: 'down', detail: 'no answer within 100 ms' });
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('is up only when every check is up', () => {
    expect(toHealthReport({ a: { status: 'up', latencyMs: 1 }, b: { status: 'up', latencyMs: 1 } }).status).toBe('up');
    expect(toHealthReport({ a: { status: 'up', latencyMs: 1 }, b: { status: 'down', latencyMs: 1 } }).status).toBe('down');
  });
});
