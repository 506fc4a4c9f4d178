import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import { startSmtpCatcher, type CaughtMessage, type RunningSmtpCatcher } from './smtp-catcher.mjs';

// The mail catcher the dev stack and the e2e tests read "sent" mail from.
describe('smtp catcher', () => {
  let dir: string;
  let catcher: RunningSmtpCatcher;

  const send = (to: string, subject: string) =>
    nodemailer
      .createTransport({ host: '127.0.0.1', port: catcher.smtpPort, secure: false, ignoreTLS: true, auth: { user: 'any', pass: 'thing' } })
      .sendMail({ from: 'Legacy Vault <no-reply@legacy-vault.test>', to, subject, text: `plain ${subject}`, html: `<p>${subject}</p>`, attachments: [{ filename: 'key.txt', content: 'LV-KEY-123' }] });
  const list = async (query = ''): Promise<CaughtMessage[]> => (await fetch(`${catcher.url}/messages${query}`)).json() as Promise<CaughtMessage[]>;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'lv-mail-'));
    catcher = await startSmtpCatcher({ smtpPort: 0, httpPort: 0, directory: dir });
  });
  afterAll(async () => {
    await catcher?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('accepts any login without TLS and shows the parsed message over HTTP', async () => {
    await send('kid@example.com', 'Your access key');
    const [message] = await list('?to=kid@example.com');
    expect(message).toMatchObject({
      subject: 'Your access key',
      envelope: { from: 'no-reply@legacy-vault.test', to: ['kid@example.com'] },
      from: [{ name: 'Legacy Vault', address: 'no-reply@legacy-vault.test' }],
      text: 'plain Your access key',
      html: '<p>Your access key</p>',
    });
    expect(Buffer.from(message!.attachments[0]!.content!, 'base64').toString()).toBe('LV-KEY-123');
    expect((await fetch(`${catcher.url}/messages/${message!.id}`)).status).toBe(200);
    expect(await list('?to=nobody@example.com')).toEqual([]);
  });

  it('keeps messages on disk across a restart and forgets them on DELETE', async () => {
    await send('aunt@example.com', 'A letter was delivered');
    await catcher.close();
    catcher = await startSmtpCatcher({ smtpPort: 0, httpPort: 0, directory: dir });
    expect((await list()).map((m) => m.subject)).toEqual(['Your access key', 'A letter was delivered']);
    expect((await list('?subject=letter')).length).toBe(1);

    expect((await fetch(`${catcher.url}/messages`, { method: 'DELETE' })).status).toBe(200);
    expect(await list()).toEqual([]);
    expect((await readdir(dir)).filter((f) => f.endsWith('.json'))).toEqual([]);
  });
});
