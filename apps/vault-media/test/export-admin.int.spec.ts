import { createHash, randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import { RawRpc } from '@lv/testing';
import { NATS_URL, sendHttp, startVaultMedia, webmBody, type Harness } from './test-support/harness.js';

// Export Vault Data's list (every item of the owner's, all collections, his only) and the admin
// dashboard's storage per day (admins only), against the running service.

jest.setTimeout(120_000);

const sha = (body: Buffer) => createHash('sha256').update(body).digest('hex');

describe('vault-media export list and storage per day', () => {
  let h: Harness;
  let rpc: RawRpc;
  const owner = randomUUID();
  const other = randomUUID();

  async function save(token: string, size: number, collection: 'vault' | 'final-messages' | 'who-i-am'): Promise<{ id: string; size: number }> {
    const body = webmBody(size);
    const ticket = await rpc.call<{ uploadId: string; contentType: string }>('rpc.vault-media.start-upload', { type: 'video', title: `t-${collection}-${size}`, sha256: sha(body), size, collection, contentType: 'video/webm' }, token);
    const answer = await sendHttp(`${h.mediaUrl}/uploads/${ticket.uploadId}`, { method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-type': ticket.contentType }, chunks: [body] });
    if (answer.status !== 201) throw new Error(`upload answered ${answer.status}: ${answer.body.toString()}`);
    return answer.json<{ id: string; size: number }>();
  }

  beforeAll(async () => {
    h = await startVaultMedia('mediaexport');
    rpc = await new RawRpc(NATS_URL).connect();
  });

  afterAll(async () => {
    await rpc?.close();
    await h?.close();
  });

  it("lists every item of the owner's, every collection, oldest first, and no one else's", async () => {
    const mine = [await save(h.tokenFor(owner), 3000, 'vault'), await save(h.tokenFor(owner), 4000, 'final-messages'), await save(h.tokenFor(owner), 5000, 'who-i-am')];
    const theirs = await save(h.tokenFor(other), 6000, 'vault');
    const page = await rpc.call<{ items: { id: string; collection: string; blob_hash: string }[]; nextCursor: string | null }>('rpc.vault-media.export-list', {}, h.tokenFor(owner));
    expect(page.items.map((i) => i.id)).toEqual(mine.map((m) => m.id));
    expect(page.items.map((i) => i.collection)).toEqual(['vault', 'final-messages', 'who-i-am']);
    expect(page.nextCursor).toBeNull();
    expect(JSON.stringify(page)).not.toContain(theirs.id);
    // After the first item: the two after it.
    const first = page.items[0]!;
    const created = (await h.resources.orm.em.fork().execute<{ created_at: Date }[]>('select created_at from recordings where id = ?', [first.id]))[0]!.created_at;
    const rest = await rpc.call<{ items: { id: string }[] }>('rpc.vault-media.export-list', { after: `${new Date(created).toISOString()}|${first.id}` }, h.tokenFor(owner));
    expect(rest.items.map((i) => i.id)).toEqual(mine.slice(1).map((m) => m.id));
    await expect(rpc.call('rpc.vault-media.export-list', { after: 'not-a-cursor' }, h.tokenFor(owner))).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('answers the bytes kept per day to an admin token only', async () => {
    const [expected] = await h.resources.orm.em.fork().execute<{ total: string }[]>('select coalesce(sum(size), 0)::text as total from recordings');
    const answer = await rpc.call<{ days: { day: string; bytes: number; items: number; totalBytes: number }[] }>('rpc.vault-media.admin.storage-by-day', {}, h.tokenFor(randomUUID(), 'none', true));
    expect(answer.days.at(-1)!.totalBytes).toBe(Number(expected!.total));
    expect(answer.days.reduce((sum, d) => sum + d.bytes, 0)).toBe(Number(expected!.total));
    expect(JSON.stringify(answer)).not.toContain(owner);
    await expect(rpc.call('rpc.vault-media.admin.storage-by-day', {}, h.tokenFor(owner))).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(rpc.call('rpc.vault-media.admin.storage-by-day', {})).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
  });
});
