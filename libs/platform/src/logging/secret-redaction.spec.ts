import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { createLogger } from './index.js';
import { loggableUrl } from './secret-redaction.js';

/** A logger writing into a string, as every process's logger is built. */
function capture() {
  let out = '';
  const sink = new Writable({ write(chunk: Buffer, _enc, done) { out += chunk.toString(); done(); } });
  return { logger: createLogger('redaction-spec', 'info', {}, sink), text: () => out };
}

describe('secrets never reach a log line (issue 29)', () => {
  const key = randomUUID();
  const secret = 'S3cr3t-view-session-0123456789abcdefghijklm';

  it('logs a request by its route template, or its path without the query string', () => {
    expect(loggableUrl({ url: `/access?k=${key}&owner=x`, routeOptions: { url: '*' } })).toBe('/access');
    expect(loggableUrl({ url: `/vault/view?session=${secret}` })).toBe('/vault/view');
    expect(loggableUrl({ url: `/api/view/entries/letters?cursor=${secret}`, routeOptions: { url: '/api/view/entries/:section' } })).toBe('/api/view/entries/:section');
  });

  it("censors the request's query, secret fields of bodies and payloads, and credential headers", () => {
    const { logger, text } = capture();
    logger.info({ req: { method: 'GET', url: `/access?k=${key}`, headers: { authorization: `Bearer ${secret}` } } }, 'incoming request');
    logger.info({ payload: { access_key: key, owner: 'o' }, session: secret }, 'rpc');
    logger.info({ body: { k: key, key, token: secret, secret, password: secret, viewer_token: secret } }, 'body');
    logger.info({ res: { headers: { 'set-cookie': `lv=${secret}` } } }, 'answer');
    expect(text()).not.toContain(key);
    expect(text()).not.toContain(secret);
    expect(text()).toContain('"url":"/access"');
    expect(text().match(/\[redacted\]/g)?.length).toBeGreaterThanOrEqual(9);
  });
});
