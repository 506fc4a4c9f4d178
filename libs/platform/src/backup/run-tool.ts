import { spawn } from 'node:child_process';
import { BackupError } from './backup-error.js';

export interface ToolResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The Debian package of each tool a backup runs (npm run vault installs them: tools/dev/ensure-install.mjs --backup). */
const PACKAGES: Record<string, string> = { restic: 'restic', pg_dump: 'postgresql-client', pg_restore: 'postgresql-client' };

/** Runs a backup tool to its end, its output collected; a missing binary is named with the package that brings it. */
export function runTool(command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<ToolResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.once('error', (error: NodeJS.ErrnoException) => {
      const pkg = PACKAGES[command] ?? command;
      reject(error.code === 'ENOENT' ? new BackupError('BACKUP_TOOL_FAILED', `${command} is not installed: \`apt-get install -y ${pkg}\` (npm run vault installs it)`) : error);
    });
    child.once('close', (code) => resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }));
  });
}

/** The last lines of a tool's complaint, on one line, for an error message. */
export const lastLines = (stderr: string, count = 3): string => stderr.trim().split('\n').slice(-count).join(' / ');
