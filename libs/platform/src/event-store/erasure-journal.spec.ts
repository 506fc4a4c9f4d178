import { DomainError } from '../errors/index.js';
import { erasureJournalUrl, replayErasures, type ErasureRecord } from './erasure-journal.js';

describe('the erasure journal', () => {
  it('lives beside the service databases under their prefix (a restore keeps it), or where ERASURE_JOURNAL_URL says', () => {
    expect(erasureJournalUrl({ DATABASE_URL: 'postgres://u:p@db:5432/lv_letters' }, 'letters')).toBe('postgres://u:p@db:5432/lv_erasures');
    expect(erasureJournalUrl({ DATABASE_URL: 'postgres://u:p@db:5432/lv_bkr_1_vault_media?sslmode=require' }, 'vault-media')).toBe('postgres://u:p@db:5432/lv_bkr_1_erasures?sslmode=require');
    // A database not named <prefix><service> (a spec's): a journal of its own beside it.
    expect(erasureJournalUrl({ DATABASE_URL: 'postgres://db/lv_test_letters_1a2b' }, 'letters')).toBe('postgres://db/lv_test_letters_1a2b_erasures');
    expect(erasureJournalUrl({ DATABASE_URL: 'postgres://db/court_journal' }, 'court-journal')).toBe('postgres://db/court_journal_erasures');
    expect(erasureJournalUrl({ DATABASE_URL: 'postgres://db/lv_letters', ERASURE_JOURNAL_URL: 'postgres://other/journal' }, 'letters')).toBe('postgres://other/journal');
  });

  it('replays every record of the service: its handler deletes again, the key is destroyed again; a stream another replica deleted first counts as erased', async () => {
    const record = (streamType: string, streamId: string): ErasureRecord => ({ erasureId: streamId, service: 'letters', streamType, streamId, keyId: streamId, erasedAt: '2026-12-07T10:00:00.000Z' });
    const journal = { recordsOf: async () => [record('letter', 'letter-a'), record('letter', 'letter-b'), record('letter', 'letter-c'), record('reflection', 'reflection-d')] };
    const destroyed: string[] = [];
    const destroyKey = async (_type: string, streamId: string) => { destroyed.push(streamId); };
    const answers: Record<string, () => Promise<boolean>> = {
      'letter-a': async () => true,
      'letter-b': async () => false,
      'letter-c': async () => { throw new DomainError('NOT_FOUND'); },
    };
    const report = await replayErasures({ journal, service: 'letters', destroyKey, handlers: [{ streamType: 'letter', eraseAgain: (id) => answers[id]!() }] });
    expect(report).toEqual({ records: 4, erasedAgain: 1 });
    // A stream type without a handler still loses its key.
    expect(destroyed).toEqual(['letter-a', 'letter-b', 'letter-c', 'reflection-d']);

    answers['letter-b'] = async () => { throw new Error('database down'); };
    await expect(replayErasures({ journal, service: 'letters', destroyKey, handlers: [{ streamType: 'letter', eraseAgain: (id) => answers[id]!() }] })).rejects.toThrow('database down');
  });
});
