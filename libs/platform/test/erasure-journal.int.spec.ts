import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { POSTGRES_ADMIN_URL } from '@lv/testing';
import { ErasureJournal } from '../src/event-store/erasure-journal.js';

// letters, vault-media and court-journal share one journal database and start at the same moment
// (npm start, a restored stack): each must find it made, whoever made it.
describe('the erasure journal database', () => {
  const name = `lv_test_journal_${randomBytes(4).toString('hex')}_erasures`;
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  const journals = Array.from({ length: 6 }, () => new ErasureJournal(url.toString()));

  afterAll(async () => {
    await Promise.all(journals.map((j) => j.close()));
    const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
    await admin.connect();
    await admin.query(`drop database if exists "${name}" with (force)`);
    await admin.end();
  });

  it('is created once when six services open it at the same moment, and every one of them can read it', async () => {
    const opened = await Promise.allSettled(journals.map((j) => j.open()));
    expect(opened.filter((o) => o.status === 'rejected')).toEqual([]);
    for (const journal of journals) expect(await journal.recordsOf('letters')).toEqual([]);
  });
});
