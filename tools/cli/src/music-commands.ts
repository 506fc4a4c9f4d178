import { VaultMediaRpc, type MusicTrack } from '@lv/contracts';
import type { CommandSpec } from './commands.js';
import { CommandError, UsageError } from './usage-error.js';

/** A file as the CLI reads it: its size and SHA-256 (read once before sending, so the service can check them). */
export interface FileFacts {
  size: number;
  sha256: string;
}

/**
 * How a command sends a file's bytes: over HTTP to vault-media's byte listener with the operator's
 * token, streamed from disk (main.ts). Never over NATS, never straight into object storage.
 */
export interface ByteSender {
  facts(file: string): Promise<FileFacts>;
  put(service: 'vault-media', path: string, file: string, contentType: string): Promise<{ status: number; body: unknown }>;
}

/** `--title "..."` among the arguments, and the rest. */
function takeTitle(args: string[]): { title?: string; rest: string[] } {
  const rest: string[] = [];
  let title: string | undefined;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--title') {
      title = args[++i];
      if (!title?.trim()) throw new UsageError('--title needs a title');
    } else if (args[i]!.startsWith('--title=')) {
      title = args[i]!.slice('--title='.length);
    } else rest.push(args[i]!);
  }
  return { title: title?.trim(), rest };
}

/** The music library's operator commands (the Parent Circle's playlist). */
export const musicCommands: Record<string, CommandSpec> = {
  'music:add': {
    usage: 'music:add <file.mp3|.wav|.m4a> [--title "..."]',
    summary: 'add a track to the Parent Circle music library (category from the file-name prefix: motivation, meditation, voice, else other)',
    async run(args, call, tools) {
      const bytes = tools?.bytes;
      const { title, rest } = takeTitle(args);
      const file = rest[0];
      if (!file) throw new UsageError('missing <file>');
      if (!bytes) throw new Error('music:add needs the byte sender');
      const { size, sha256 } = await bytes.facts(file);
      const ticket = await call(VaultMediaRpc.musicStartUpload, { fileName: file, size, sha256, ...(title ? { title } : {}) });
      const answer = await bytes.put('vault-media', ticket.uploadPath, file, ticket.contentType);
      if (answer.status !== 201) {
        const error = answer.body as { code?: string; message?: string } | undefined;
        throw new CommandError(`vault-media refused the file (${answer.status}${error?.code ? ` ${error.code}` : ''}): ${error?.message ?? 'no reason given'}`);
      }
      return answer.body as MusicTrack;
    },
  },
  'music:list': {
    usage: 'music:list',
    summary: 'list the tracks of the music library (id, file name, title, category, size, SHA-256)',
    run: (_args, call) => call(VaultMediaRpc.musicLibrary, {}),
  },
  'music:remove': {
    usage: 'music:remove <track id | file name>',
    summary: 'remove a track from the music library (and its file)',
    async run(args, call) {
      const track = args[0];
      if (!track) throw new UsageError('missing <track id | file name>');
      return call(VaultMediaRpc.musicRemove, { track });
    },
  },
};
