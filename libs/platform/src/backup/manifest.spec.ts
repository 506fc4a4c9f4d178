import { BackupError } from './backup-error.js';
import { MANIFEST_FORMAT, objectFileName, parseManifest, rowCountMismatches } from './manifest.js';

const manifest = (over: Record<string, unknown> = {}) => JSON.stringify({ format: MANIFEST_FORMAT, createdAt: '2026-12-06T00:00:00.000Z', databases: [], buckets: [], keys: [], ...over });

function refusal(text: string): BackupError {
  try {
    parseManifest(text);
  } catch (error) {
    return error as BackupError;
  }
  throw new Error('parseManifest accepted it');
}

describe('a snapshot manifest', () => {
  it('reads one of this format', () => {
    expect(parseManifest(manifest()).format).toBe(MANIFEST_FORMAT);
  });

  it('refuses one of a newer format, naming both versions', () => {
    const error = refusal(manifest({ format: MANIFEST_FORMAT + 1 }));
    expect(error.code).toBe('BACKUP_NEWER_FORMAT');
    expect(error.message).toContain(`format ${MANIFEST_FORMAT + 1}`);
  });

  it.each([['not JSON', '{"format": 1,'], ['no lists', '{"format": 1}'], ['nothing', '']])('calls %s damaged', (_label, text) => {
    expect(refusal(text).code).toBe('BACKUP_DAMAGED');
  });

  it('names staged objects by their key hash, so no key becomes a path', () => {
    expect(objectFileName('../../etc/passwd')).toMatch(/^[0-9a-f]{64}$/);
    expect(objectFileName('a/b')).not.toBe(objectFileName('a_b'));
  });

  it('lists each table whose rows differ, and tables on one side only', () => {
    expect(rowCountMismatches({ 'public.events': 3, 'public.inbox': 0 }, { 'public.events': 3, 'public.inbox': 0 })).toEqual([]);
    expect(rowCountMismatches({ 'public.events': 3, 'public.gone': 1 }, { 'public.events': 2, 'public.extra': 0 })).toEqual([
      'public.events: 3 rows in the manifest, 2 restored',
      'public.extra: no table rows in the manifest, 0 restored',
      'public.gone: 1 rows in the manifest, no table restored',
    ]);
  });
});
