// Probes of PostgreSQL, Redis and NATS (infra.mjs): does a server of that kind answer at this URL?
import { Socket } from 'node:net';
import pg from 'pg';

function talk(port, host, { send, expect, timeoutMs = 2000 }) {
  return new Promise((resolvePromise, reject) => {
    const socket = new Socket();
    let data = '';
    const done = (err, value) => {
      socket.destroy();
      if (err) reject(err);
      else resolvePromise(value);
    };
    socket.setTimeout(timeoutMs, () => done(new Error('timed out')));
    socket.once('error', (err) => done(err));
    socket.on('data', (chunk) => {
      data += chunk.toString();
      try {
        const result = expect(data);
        if (result !== undefined) done(null, result);
      } catch (err) {
        done(err);
      }
    });
    socket.connect(port, host, () => { if (send) socket.write(send); });
  });
}

async function probePostgres(url) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('select 1');
  } finally {
    await client.end().catch(() => undefined);
  }
}

function probeRedis(url) {
  const { hostname, port } = new URL(url);
  return talk(Number(port || 6379), hostname, {
    send: 'PING\r\n',
    expect: (d) => {
      if (!d.includes('\r\n')) return undefined;
      // An instance with a password answers -NOAUTH: it is there, the apps will authenticate.
      if (d.startsWith('+PONG') || d.startsWith('-NOAUTH')) return true;
      throw new Error(d.trim());
    },
  });
}

async function probeNats(url) {
  const first = url.split(',')[0];
  const { hostname, port } = new URL(first);
  const info = await talk(Number(port || 4222), hostname, {
    expect: (d) => {
      if (!d.includes('\r\n')) return undefined;
      const line = d.split('\r\n')[0];
      if (!line.startsWith('INFO ')) throw new Error(`unexpected greeting "${line.slice(0, 40)}"`);
      return JSON.parse(line.slice(5));
    },
  });
  if (!info.jetstream) throw new Error('it runs without JetStream (-js)');
}

export const PROBES = { postgres: probePostgres, redis: probeRedis, nats: probeNats };
