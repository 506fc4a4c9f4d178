// The floor of media-upload.mjs's (c): a bare Node HTTP server streaming the recording, read and
// hashed as the worker reads.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { nodeBinary } from '../dev/stack.mjs';

/**
 * The floor for (c): a bare Node HTTP server in a process of its own streams the file (4 MiB reads)
 * to this process, which hashes each piece as it arrives, as the worker does. No S3 protocol, no
 * signature, no queue: what any storage served by Node over loopback HTTP costs on this machine.
 * It runs in a session of its own (detached), as the S3 stand-in does: the kernel's autogroup
 * scheduling shares a busy machine's CPU per session, and in this process's session the server
 * would share one slice with its own client. `readWholeObject` is the worker's reader (libs/platform
 * dist); `onSpawn` gets the server's process at once, to stop it on every way out.
 */
export async function startFloorServer(path, expectedSha, { readWholeObject, onSpawn }) {
  const server = spawn(nodeBinary(), ['-e', `
    const { createServer } = require('node:http');
    const { createReadStream, statSync } = require('node:fs');
    const path = process.argv[1];
    const server = createServer((req, res) => {
      res.writeHead(200, { 'content-length': statSync(path).size });
      createReadStream(path, { highWaterMark: 4 * 1024 * 1024 }).pipe(res);
    });
    server.listen(0, '127.0.0.1', () => console.log(server.address().port));`, path], { stdio: ['ignore', 'pipe', 'inherit'], detached: true });
  onSpawn(server);
  const serverPort = await new Promise((resolvePort, reject) => {
    server.stdout.once('data', (data) => resolvePort(Number(String(data).trim())));
    server.once('exit', (code) => reject(new Error(`the bare HTTP server exited (${code})`)));
  });
  const check = (hex) => {
    if (hex !== expectedSha) throw new Error('the bare HTTP read hashed differently');
  };
  return {
    /**
     * One GET read as the worker reads (the platform's readWholeObject: one reused buffer, no HTTP
     * client objects per socket read), hashed; its time in ms. This is the floor: no S3, no queue.
     */
    async hashOnce() {
      const started = performance.now();
      const hash = createHash('sha256');
      await readWholeObject(`http://127.0.0.1:${serverPort}/`, (piece) => hash.update(piece));
      const ms = performance.now() - started;
      check(hash.digest('hex'));
      return ms;
    },
    /** The same GET through Node's HTTP client (the floor until 2026-11-27; shown for scale). */
    async hashWithNodeHttp() {
      const started = performance.now();
      const hex = await new Promise((resolveHash, reject) => {
        httpRequest({ host: '127.0.0.1', port: serverPort, path: '/' }, (res) => {
          const hash = createHash('sha256');
          res.on('data', (chunk) => hash.update(chunk));
          res.on('end', () => resolveHash(hash.digest('hex')));
          res.on('error', reject);
        }).on('error', reject).end();
      });
      const ms = performance.now() - started;
      check(hex);
      return ms;
    },
    close: () => server.kill(),
  };
}
