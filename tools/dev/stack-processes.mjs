// The stack's child processes: their log lines, the last-resort kill on exit, a one-off run (a
// migration) and the S3-protocol server.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { nodeBinary, StackError } from './stack-node.mjs';

const LEVELS = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO ', 40: 'WARN ', 50: 'ERROR', 60: 'FATAL' };
const PINO_KEYS = new Set(['level', 'time', 'pid', 'hostname', 'name', 'msg', 'v']);

/** Turns a pino JSON line into `HH:MM:SS LEVEL message {extra}`; other lines pass through. */
export function formatLogLine(line) {
  if (!line.startsWith('{') || process.env.LV_RAW_LOGS) return line;
  let entry;
  try {
    entry = JSON.parse(line);
  } catch {
    return line;
  }
  if (typeof entry !== 'object' || entry === null || !('level' in entry)) return line;
  const time = new Date(entry.time ?? Date.now()).toISOString().slice(11, 19);
  const level = LEVELS[entry.level] ?? String(entry.level).toUpperCase().padEnd(5);
  const extra = Object.fromEntries(Object.entries(entry).filter(([k]) => !PINO_KEYS.has(k) && k !== 'err'));
  let text = `${time} ${level} ${entry.msg ?? ''}`;
  const rest = JSON.stringify(extra);
  if (rest !== '{}') text += ` ${rest.length > 400 ? `${rest.slice(0, 400)}...` : rest}`;
  if (entry.err?.stack) text += `\n${entry.err.stack}`;
  return text;
}

// Every child of every stack in this process, for the last-resort kill when the process exits.
// Children get their own process group (detached), so a Ctrl-C at the terminal reaches only the
// orchestrator, which stops them in order; if it exits any other way, they are killed here.
export const running = new Set();
process.on('exit', () => {
  for (const child of running) {
    try {
      child.kill('SIGKILL');
    } catch {
      // already gone
    }
  }
});

export function runToCompletion(name, args, env, { log, timeoutMs, cwd }) {
  return new Promise((resolvePromise, reject) => {
    const tail = [];
    const child = spawn(nodeBinary(), args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    running.add(child);
    child.once('exit', () => running.delete(child));
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream }).on('line', (line) => {
        const text = formatLogLine(line);
        tail.push(text);
        if (tail.length > 40) tail.shift();
        log(`[${name}] ${text}`);
      });
    }
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', (err) => { clearTimeout(timer); reject(err); });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolvePromise();
      else reject(new StackError(`${name} failed (${signal ? `killed by ${signal}${signal === 'SIGKILL' ? ` after ${timeoutMs / 1000}s` : ''}` : `exit code ${code}`}); its last lines:\n${tail.slice(-15).join('\n')}`));
    });
  });
}

const S3_SERVER_SCRIPT = fileURLToPath(new URL('./s3-server.mjs', import.meta.url));

/**
 * The S3-protocol server in a process of its own: it serves every media byte, so it must not share
 * an event loop with this orchestrator's log piping (nor, in a benchmark, with the load generator).
 * Resolves once it listens, to the same shape as startS3Server's result.
 */
export function startS3Process({ port, host, directory, accessKey, secretKey, log }) {
  return new Promise((resolvePromise, reject) => {
    const tail = [];
    const child = spawn(nodeBinary(), [S3_SERVER_SCRIPT, '--port', String(port), '--host', host, '--dir', directory], {
      env: { ...process.env, S3_ACCESS_KEY: accessKey, S3_SECRET_KEY: secretKey },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    running.add(child);
    let exited = false;
    const exit = new Promise((r) => child.once('exit', (code, signal) => { exited = true; running.delete(child); r({ code, signal }); }));
    const close = async () => {
      if (exited) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exit;
      clearTimeout(timer);
    };
    let ready = false;
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream }).on('line', (line) => {
        tail.push(line);
        if (tail.length > 20) tail.shift();
        const listening = !ready && /S3-protocol server on (http:\/\/\S+)/.exec(line);
        if (listening) {
          ready = true;
          const endpoint = listening[1];
          resolvePromise({ endpoint, host, port: Number(new URL(endpoint).port), accessKey, secretKey, region: 'us-east-1', directory, pid: child.pid, close });
        } else if (ready) {
          log(`[s3] ${line}`);
        }
      });
    }
    child.once('error', (err) => reject(err));
    void exit.then(({ code, signal }) => {
      if (ready) {
        log(`[stack] the S3-protocol server ${signal ? `was killed by ${signal}` : `exited with code ${code}`}`);
        return;
      }
      // The caller words the error; a taken port is the one cause worth naming on its own.
      const detail = tail.join('\n');
      const portTaken = detail.includes('EADDRINUSE');
      reject(Object.assign(new Error(portTaken ? 'EADDRINUSE' : `exited (${signal ?? code}): ${detail.slice(-500)}`), { code: portTaken ? 'EADDRINUSE' : undefined }));
    });
  });
}
