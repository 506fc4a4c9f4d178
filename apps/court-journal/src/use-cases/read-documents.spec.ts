import { randomUUID } from 'node:crypto';
import { ownerCaller, viewerCaller } from '../../test/test-support/callers.js';
import { InMemoryCourtDocuments } from '../../test/test-support/in-memory-court-documents.js';
import { ReadDocuments } from './read-documents.js';

describe('reading a vault’s court documents', () => {
  const documents = new InMemoryCourtDocuments();
  const reads = new ReadDocuments(documents);
  const owner = ownerCaller();
  const stranger = ownerCaller();
  const older = documents.add(owner.userId, { title: 'Custody order', description: 'The judge’s order.', category: 'Legal Notices or Orders', variant: 'documents', file_name: 'order.pdf', upload_date: '2026-11-20T23:30:00.000Z' });
  const newer = documents.add(owner.userId, { title: 'Receipts, March', description: 'Handed over on the 14th.', file_name: 'receipts.pdf', upload_date: '2026-11-22T10:00:00.000Z' });
  const sameDay = documents.add(owner.userId, { title: 'Receipts, April', file_name: 'april.pdf', upload_date: '2026-11-22T18:00:00.000Z' });
  const strangers = documents.add(stranger.userId, { title: 'Someone else’s matter', file_name: 'theirs.pdf' });

  describe('list', () => {
    it('gives the owner his own documents, newest first, with his titles and descriptions', async () => {
      const listed = await reads.list(owner);
      expect(listed.map((d) => d.id)).toEqual([sameDay.id, newer.id, older.id]);
      expect(listed[1]).toMatchObject({ title: 'Receipts, March', description: 'Handed over on the 14th.', file_name: 'receipts.pdf', size: 1234, previewable: true });
      expect(listed.map((d) => d.id)).not.toContain(strangers.id);
    });

    it('lists one category when asked, and refuses a category the Court Journal does not have', async () => {
      expect((await reads.list(owner, 'Legal Notices or Orders')).map((d) => d.id)).toEqual([older.id]);
      await expect(reads.list(owner, 'Groceries')).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    });

    it('shows a viewer with the court-journal key the file name where the owner sees his title, and no description', async () => {
      const listed = await reads.list(viewerCaller(owner.userId, ['court-journal']));
      expect(listed.map((d) => d.id)).toEqual([sameDay.id, newer.id, older.id]);
      expect(listed.map((d) => [d.title, d.description])).toEqual([['april.pdf', null], ['receipts.pdf', null], ['order.pdf', null]]);
    });

    it('refuses a viewer whose key does not open the Court Journal', async () => {
      await expect(reads.list(viewerCaller(owner.userId, ['letters', 'timeline']))).rejects.toMatchObject({ code: 'FORBIDDEN' });
    });
  });

  describe('titles (the timeline’s lookup)', () => {
    const ids = [newer.id, newer.id.toUpperCase(), strangers.id, randomUUID(), 'not-an-id'];

    it('answers the owner’s titles of his own documents only; malformed, unknown and others’ ids are left out', async () => {
      expect(await reads.titles(owner, ids)).toEqual({ titles: { [newer.id]: 'Receipts, March' } });
    });

    it('answers a court-journal viewer with file names, never the owner’s titles', async () => {
      expect(await reads.titles(viewerCaller(owner.userId, ['timeline', 'court-journal']), ids)).toEqual({ titles: { [newer.id]: 'receipts.pdf' } });
    });

    it('answers a timeline-only viewer with nothing', async () => {
      expect(await reads.titles(viewerCaller(owner.userId, ['timeline']), ids)).toEqual({ titles: {} });
    });
  });

  describe('stats', () => {
    it('counts each UTC day the owner filed a document still in the vault once', async () => {
      expect(await reads.stats(owner)).toEqual({ activeDays: ['2026-11-20', '2026-11-22'] });
    });

    it('is the owner’s alone', async () => {
      await expect(reads.stats(viewerCaller(owner.userId, ['court-journal']))).rejects.toMatchObject({ code: 'FORBIDDEN' });
    });
  });
});
