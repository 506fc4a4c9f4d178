// The documents read model's contract, held by the Postgres repository and by the in-memory one the
// use cases' unit specs run on: the same seed, the same answers, so those specs prove real behaviour.
import { randomUUID } from 'node:crypto';
import { createTestDatabase, type TestDatabase } from '@lv/testing';
import { toCourtDocument } from '../src/documents/court-documents.projection.js';
import { CourtDocumentsRepository, type CourtDocumentsReadModel } from '../src/documents/court-documents.repository.js';
import { courtJournalMigrations } from '../src/migrations.js';
import { InMemoryCourtDocuments } from './test-support/in-memory-court-documents.js';

const owner = randomUUID();
const stranger = randomUUID();
const seed = new InMemoryCourtDocuments();
// Filed late on the 20th in New York: the 21st in UTC.
const custody = seed.add(owner, { title: 'Custody order', description: null, category: 'Legal Notices or Orders', variant: 'documents', file_name: 'order.pdf', upload_date: '2026-11-20T23:30:00.000-05:00' });
const receipts = seed.add(owner, { title: 'Receipts, March', file_name: 'receipts.pdf', size: '2048', upload_date: '2026-11-22T10:00:00.000Z' });
// Two filed in the same instant: the greater id first.
const [lowId, highId] = ((a: string, b: string): [string, string] => (a < b ? [a, b] : [b, a]))(randomUUID(), randomUUID());
const photo = (id: string, name: string) => seed.add(owner, { id, title: name, category: 'Photo Evidence', file_name: `${name}.png`, file_kind: 'png', upload_date: '2026-11-23T08:00:00.000Z' });
const tieLow = photo(lowId, 'photo-1');
const tieHigh = photo(highId, 'photo-2');
const theirs = seed.add(stranger, { title: 'Someone else’s matter', file_name: 'theirs.pdf', upload_date: '2026-11-24T08:00:00.000Z' });
const rows = [custody, receipts, tieLow, tieHigh, theirs];

describe.each(['postgres', 'in memory'] as const)('the documents read model (%s)', (kind) => {
  let db: TestDatabase | undefined;
  let model: CourtDocumentsReadModel;

  beforeAll(async () => {
    if (kind === 'in memory') {
      model = seed;
      return;
    }
    db = await createTestDatabase(courtJournalMigrations, 'readmodel');
    for (const r of rows) {
      await db.orm.em.fork().execute(
        `insert into court_documents (id, owner_id, title, description, category, variant, file_name, file_kind, content_type, bucket, object_key, size, sha256, is_key_evidence, upload_date, created_at)
         values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [r.id, r.owner_id, r.title, r.description, r.category, r.variant, r.file_name, r.file_kind, r.content_type, r.bucket, r.object_key, r.size, r.sha256, r.is_key_evidence, r.upload_date, r.created_at],
      );
    }
    model = CourtDocumentsRepository.of(db.orm);
  });

  afterAll(async () => {
    await db?.drop();
  });

  it('finds the owner’s document, and nothing under another owner or an unknown id', async () => {
    const found = await model.find(owner, receipts.id);
    expect(found && toCourtDocument(found)).toEqual(toCourtDocument(receipts));
    expect(await model.find(owner, theirs.id)).toBeNull();
    expect(await model.find(stranger, receipts.id)).toBeNull();
    expect(await model.find(owner, randomUUID())).toBeNull();
  });

  it('lists the owner’s documents newest first (the greater id first within one instant), optionally of one category', async () => {
    expect((await model.list(owner)).map((r) => r.id)).toEqual([tieHigh.id, tieLow.id, receipts.id, custody.id]);
    expect((await model.list(owner, 'Photo Evidence')).map((r) => r.id)).toEqual([tieHigh.id, tieLow.id]);
    expect(await model.list(randomUUID())).toEqual([]);
  });

  it('counts the owner’s filing days in UTC, each once, in order', async () => {
    expect(await model.activeDays(owner)).toEqual(['2026-11-21', '2026-11-22', '2026-11-23']);
  });

  it('answers titles or file names of the owner’s documents among the ids asked for', async () => {
    const ids = [receipts.id, custody.id, theirs.id, randomUUID()];
    expect(await model.titles(owner, ids, 'title')).toEqual({ [receipts.id]: 'Receipts, March', [custody.id]: 'Custody order' });
    expect(await model.titles(owner, ids, 'file_name')).toEqual({ [receipts.id]: 'receipts.pdf', [custody.id]: 'order.pdf' });
    expect(await model.titles(owner, [], 'title')).toEqual({});
  });
});
