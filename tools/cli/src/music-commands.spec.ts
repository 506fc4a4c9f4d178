import { VaultMediaRpc, type RpcDeclaration } from '@lv/contracts';
import { type OperatorCall, COMMANDS, helpText, UsageError } from './commands.js';
import type { ByteSender } from './music-commands.js';

describe('music commands of the vault CLI', () => {
  const calls: { pattern: string; payload: unknown }[] = [];
  const puts: { path: string; file: string; contentType: string }[] = [];
  let answer = { status: 201, body: { id: 't-1', title: 'Rise Up', category: 'motivation', fileName: 'motivation-rise-up.mp3' } as unknown };
  const call = (async (declaration: RpcDeclaration, payload: unknown) => {
    calls.push({ pattern: declaration.subject, payload });
    return { trackId: 't-1', uploadPath: '/music-uploads/t-1', contentType: 'audio/mpeg', maxBytes: 1 };
  }) as OperatorCall;
  const bytes: ByteSender = {
    facts: async () => ({ size: 1234, sha256: 'c'.repeat(64) }),
    put: async (_service, path, file, contentType) => {
      puts.push({ path, file, contentType });
      return answer;
    },
  };
  beforeEach(() => {
    calls.length = 0;
    puts.length = 0;
  });

  it('music:add announces the file (name, size, SHA-256, --title), then sends its bytes to the path vault-media gave', async () => {
    const track = await COMMANDS['music:add']!.run(['songs/motivation-rise-up.mp3', '--title', 'Rise Up, Dad'], call, { bytes });
    expect(calls).toEqual([{ pattern: VaultMediaRpc.musicStartUpload.subject, payload: { fileName: 'songs/motivation-rise-up.mp3', size: 1234, sha256: 'c'.repeat(64), title: 'Rise Up, Dad' } }]);
    expect(puts).toEqual([{ path: '/music-uploads/t-1', file: 'songs/motivation-rise-up.mp3', contentType: 'audio/mpeg' }]);
    expect(track).toMatchObject({ title: 'Rise Up' });
  });

  it('music:add says why vault-media refused the bytes, and needs a file', async () => {
    answer = { status: 415, body: { code: 'UNSUPPORTED_MEDIA', message: 'This file is not the audio its name says (mp3, wav or m4a).' } };
    await expect(COMMANDS['music:add']!.run(['fake.mp3'], call, { bytes })).rejects.toThrow('vault-media refused the file (415 UNSUPPORTED_MEDIA): This file is not the audio its name says');
    await expect(COMMANDS['music:add']!.run([], call, { bytes })).rejects.toBeInstanceOf(UsageError);
    await expect(COMMANDS['music:add']!.run(['a.mp3', '--title'], call, { bytes })).rejects.toBeInstanceOf(UsageError);
  });

  it('music:list and music:remove call vault-media’s operator commands', async () => {
    await COMMANDS['music:list']!.run([], call);
    await COMMANDS['music:remove']!.run(['motivation-rise-up.mp3'], call);
    expect(calls).toEqual([
      { pattern: VaultMediaRpc.musicLibrary.subject, payload: {} },
      { pattern: VaultMediaRpc.musicRemove.subject, payload: { track: 'motivation-rise-up.mp3' } },
    ]);
    await expect(COMMANDS['music:remove']!.run([], call)).rejects.toBeInstanceOf(UsageError);
    expect(helpText()).toContain('music:add <file.mp3|.wav|.m4a> [--title "..."]');
  });
});
