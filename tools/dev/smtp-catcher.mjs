#!/usr/bin/env node
// The mail catcher of the dev stack and of the e2e tests: an SMTP server on 127.0.0.1 that accepts
// every message (any AUTH, no STARTTLS: smtp-server's bundled certificate has expired, so clients
// use `ignoreTLS: true`), parses it with mailparser, keeps it in memory and as JSON in <dir>/, and
// shows what was "sent" over a small HTTP API:
//   GET    /messages            all messages, oldest first (?to=addr and ?subject=text filter)
//   GET    /messages/:id        one message
//   DELETE /messages            forget every message (memory and disk)
//   DELETE /messages/:id        forget one
//   GET    /health              200
//   GET    /                    a plain HTML list for humans
// Usage: node tools/dev/smtp-catcher.mjs [--smtp-port 1025] [--http-port 1080] [--dir .data/mail]
import { SMTPServer } from 'smtp-server';
import { createRequire } from 'node:module';
import { createServer } from 'node:http';
import { mkdir, readdir, readFile, writeFile, rm } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const { simpleParser } = require('mailparser');

const MAX_INLINE_ATTACHMENT = 1024 * 1024;

const addresses = (field) => {
  if (!field) return [];
  const list = Array.isArray(field) ? field : [field];
  return list.flatMap((a) => a.value ?? []).map((v) => ({ name: v.name || undefined, address: v.address }));
};

async function toRecord(raw, session) {
  const parsed = await simpleParser(raw);
  return {
    id: randomUUID(),
    receivedAt: new Date().toISOString(),
    envelope: {
      from: session.envelope.mailFrom ? session.envelope.mailFrom.address : null,
      to: session.envelope.rcptTo.map((r) => r.address),
    },
    messageId: parsed.messageId ?? null,
    from: addresses(parsed.from),
    to: addresses(parsed.to),
    cc: addresses(parsed.cc),
    replyTo: addresses(parsed.replyTo),
    subject: parsed.subject ?? '',
    date: parsed.date ? parsed.date.toISOString() : null,
    text: parsed.text ?? '',
    html: typeof parsed.html === 'string' ? parsed.html : null,
    headers: Object.fromEntries([...parsed.headers].map(([k, v]) => [k, typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date) ? (v.text ?? v.value ?? v) : v])),
    attachments: (parsed.attachments ?? []).map((a) => ({
      filename: a.filename ?? null,
      contentType: a.contentType,
      size: a.size,
      contentId: a.contentId ?? null,
      content: a.size <= MAX_INLINE_ATTACHMENT ? a.content.toString('base64') : null,
    })),
    size: raw.length,
  };
}

const matches = (message, query) => {
  const to = query.get('to');
  const subject = query.get('subject');
  if (to) {
    const wanted = to.toLowerCase();
    const all = [...message.envelope.to, ...message.to.map((a) => a.address), ...message.cc.map((a) => a.address)];
    if (!all.some((a) => a && a.toLowerCase() === wanted)) return false;
  }
  if (subject && !message.subject.toLowerCase().includes(subject.toLowerCase())) return false;
  return true;
};

const html = (s) => String(s).replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c]);

/**
 * Starts the SMTP server and its HTTP API (port 0 = any free port).
 * Resolves to { smtpPort, httpPort, url, host, messages, clear(), close() }.
 */
export async function startSmtpCatcher({ smtpPort = 1025, httpPort = 1080, host = '127.0.0.1', directory = resolve('.data/mail'), log = () => {} } = {}) {
  directory = resolve(directory);
  await mkdir(directory, { recursive: true });
  const messages = [];
  for (const file of (await readdir(directory)).filter((f) => f.endsWith('.json')).sort()) {
    try {
      messages.push(JSON.parse(await readFile(join(directory, file), 'utf8')));
    } catch {
      // a half-written file from a crash: ignore it
    }
  }
  messages.sort((a, b) => a.receivedAt.localeCompare(b.receivedAt));
  const fileOf = (m) => join(directory, `${m.receivedAt.replace(/[:.]/g, '-')}_${m.id}.json`);

  const smtp = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    allowInsecureAuth: true,
    logger: false,
    size: 50 * 1024 * 1024,
    onAuth(auth, _session, callback) {
      callback(null, { user: auth.username || 'anonymous' });
    },
    onData(stream, session, callback) {
      const chunks = [];
      stream.on('data', (c) => chunks.push(c));
      stream.on('error', callback);
      // Every outcome ends in callback(), so the promise of this listener is left alone on purpose.
      stream.on('end', () => void (async () => {
        try {
          const record = await toRecord(Buffer.concat(chunks), session);
          messages.push(record);
          await writeFile(fileOf(record), JSON.stringify(record, null, 2));
          log(`mail to ${record.envelope.to.join(', ')}: ${record.subject}`);
          callback();
        } catch (err) {
          callback(err);
        }
      })());
    },
  });
  smtp.on('error', (err) => log(`smtp error: ${err.message}`));

  const clear = async () => {
    const all = messages.splice(0, messages.length);
    await Promise.all(all.map((m) => rm(fileOf(m), { force: true })));
  };

  // Answers every request itself, errors included (500), so the server only fires it.
  const answer = async (req, res) => {
    const send = (status, body, type = 'application/json') => {
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      res.end(type === 'application/json' ? JSON.stringify(body) : body);
    };
    try {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const [, first, id] = url.pathname.split('/');
      if (url.pathname === '/health') return send(200, { status: 'ok' });
      if (url.pathname === '/' && req.method === 'GET') {
        const rows = messages.map((m) => `<li><a href="/messages/${m.id}">${html(m.receivedAt)} to ${html(m.envelope.to.join(', '))}: ${html(m.subject)}</a></li>`).reverse();
        return send(200, `<!doctype html><title>Mail catcher</title><h1>${messages.length} message(s)</h1><ul>${rows.join('')}</ul><p>JSON: <a href="/messages">/messages</a></p>`, 'text/html; charset=utf-8');
      }
      if (first !== 'messages') return send(404, { error: 'not found' });
      if (!id) {
        if (req.method === 'GET') return send(200, messages.filter((m) => matches(m, url.searchParams)));
        if (req.method === 'DELETE') { await clear(); return send(200, { deleted: true }); }
        return send(405, { error: 'method not allowed' });
      }
      const index = messages.findIndex((m) => m.id === id);
      if (index < 0) return send(404, { error: 'no such message' });
      if (req.method === 'GET') return send(200, messages[index]);
      if (req.method === 'DELETE') {
        const [m] = messages.splice(index, 1);
        await rm(fileOf(m), { force: true });
        return send(200, { deleted: true });
      }
      return send(405, { error: 'method not allowed' });
    } catch (err) {
      send(500, { error: err.message });
    }
  };
  const http = createServer((req, res) => void answer(req, res));

  const listen = (server, port) => new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(port, host, () => { server.off('error', fail); ok(server.address().port); });
  });
  const boundSmtp = await listen(smtp.server, smtpPort).catch((err) => { throw new Error(`mail catcher: SMTP port ${host}:${smtpPort} is not free (${err.code ?? err.message})`); });
  const boundHttp = await listen(http, httpPort).catch(async (err) => {
    await new Promise((r) => smtp.close(r));
    throw new Error(`mail catcher: HTTP port ${host}:${httpPort} is not free (${err.code ?? err.message})`);
  });

  return {
    host,
    smtpPort: boundSmtp,
    httpPort: boundHttp,
    url: `http://${host}:${boundHttp}`,
    directory,
    messages,
    clear,
    close: async () => {
      http.closeAllConnections?.();
      await Promise.all([
        new Promise((r) => http.close(() => r())),
        new Promise((r) => smtp.close(() => r())),
      ]);
    },
  };
}

const isMain = process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1]);
if (isMain) {
  const arg = (name, fallback) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1] : fallback;
  };
  const catcher = await startSmtpCatcher({
    smtpPort: Number(arg('smtp-port', process.env.SMTP_PORT ?? 1025)),
    httpPort: Number(arg('http-port', process.env.MAIL_HTTP_PORT ?? 1080)),
    directory: arg('dir', '.data/mail'),
    log: (m) => console.log(`[mail] ${m}`),
  });
  console.log(`SMTP on ${catcher.host}:${catcher.smtpPort}, messages at ${catcher.url}/messages`);
  const stop = () => void catcher.close().then(() => process.exit(0), (err) => { console.error(err); process.exit(1); });
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
