import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildProject } from '../../build/build.mjs';
import { generateEvidenceKey, loadEvidenceKeyRing, writeEvidenceBundle } from '@lv/evidence';
import { collect, json, OWNER, pretty, rezip, sampleBundle, sampleRecord, type SampleRecord } from '../../../libs/evidence/src/test-support/fixtures.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));

/**
 * The verifier as it ships: compiled by tools/build/build.mjs and run as its own process, with only
 * node_modules to lean on (no service, database or network). Built into a private folder, laid out
 * like the workspace, so the spec never rewrites the dist/ folders a running stack may be loading.
 */
describe('npm run verify-evidence', () => {
  let dir: string;
  let main: string;
  let record: SampleRecord;
  let good: Buffer;
  const run = (args: string[], opts: { cwd?: string; initCwd?: string } = {}) => {
    const r = spawnSync(process.execPath, [main, ...args], {
      cwd: opts.cwd ?? dir,
      env: { PATH: process.env.PATH, ...(opts.initCwd ? { INIT_CWD: opts.initCwd } : {}) },
      encoding: 'utf8',
      timeout: 60_000,
    });
    return { code: r.status, out: r.stdout, err: r.stderr };
  };
  const write = (name: string, bytes: Uint8Array | string) => {
    writeFileSync(join(dir, name), bytes);
    return join(dir, name);
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'verify-evidence-'));
    writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
    for (const lib of ['contracts', 'evidence']) {
      const target = join(dir, 'node_modules', '@lv', lib);
      mkdirSync(target, { recursive: true });
      cpSync(join(root, 'libs', lib, 'package.json'), join(target, 'package.json'));
      await buildProject(join(root, 'libs', lib), join(target, 'dist'));
    }
    for (const dep of ['zod', 'fflate']) symlinkSync(join(root, 'node_modules', dep), join(dir, 'node_modules', dep));
    await buildProject(join(root, 'tools', 'evidence'), join(dir, 'tools', 'evidence', 'dist'));
    main = join(dir, 'tools', 'evidence', 'dist', 'main.js');
    record = sampleRecord();
    good = await sampleBundle(record);
    write('good.zip', good);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is the root script, built the way `npm run vault` builds the operators\' CLI', () => {
    const scripts = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(scripts['verify-evidence']).toBe('node tools/dev/ensure-install.mjs --quiet && node tools/build/build.mjs libs/contracts libs/evidence tools/evidence > /dev/null && node tools/evidence/dist/main.js');
  });

  it('exits 0 on an intact bundle and says owner, entries, files, head and key, and what the key was checked against', () => {
    const r = run(['good.zip'], { cwd: root, initCwd: dir });
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toContain(`Owner:        ${OWNER}`);
    expect(r.out).toContain('Entries:      7');
    expect(r.out).toContain('Files:        2 originals present, 1 deleted document recorded');
    expect(r.out).toContain(`Signed head:  entry 7, hash ${record.chain[6]!.hash}`);
    expect(r.out).toContain(`Key id:       ${record.ring.keyId}`);
    expect(r.out).toMatch(/Trusted key: {2}the key shipped INSIDE the bundle/);
    expect(r.out.trim().split('\n').pop()).toBe('RESULT: INTACT');
  });

  it('exits non-zero and names the entry of a tampered chain', () => {
    const swapped = write('swapped.zip', rezip(good, (f) => {
      const chain = json(f['chain.json']!);
      [chain.entries[4], chain.entries[5]] = [chain.entries[5], chain.entries[4]];
      f['chain.json'] = pretty(chain);
    }));
    const r = run([swapped]);
    expect(r.code).toBe(1);
    expect(r.out).toContain('RESULT: NOT INTACT (1 problem)');
    expect(r.out).toMatch(/^ {2}entry 5: expected entry 5 here but found entry 6/m);
  });

  it('names a changed file', () => {
    const flipped = write('flipped.zip', rezip(good, (f) => {
      const copy = Buffer.from(f['files/receipts-or-payment-records/2-transfer.png']!);
      copy[100]! ^= 0x80;
      f['files/receipts-or-payment-records/2-transfer.png'] = copy;
    }));
    const r = run([flipped]);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^ {2}files\/receipts-or-payment-records\/2-transfer\.png: SHA-256 is [0-9a-f]{64}, but entry 2 recorded/m);
  });

  it('pins the published keys: a bundle re-signed by another key passes only unpinned', async () => {
    const impostor = loadEvidenceKeyRing({ current: generateEvidenceKey().privateKeyPem });
    const last = record.chain[6]!;
    const resigned = write('resigned.zip', await collect(writeEvidenceBundle({
      ownerId: OWNER, chain: record.chain, publicKeys: impostor.publicKeys, generatedAt: '2026-03-21T00:00:00.000Z',
      signedHead: impostor.sign({ ownerId: OWNER, sequence: 7, headHash: last.hash, signedAt: last.at }),
      documents: [...record.originals].map(([documentId, content]) => ({ documentId, content })),
    })));
    const published = write('published-keys.json', JSON.stringify(record.ring.publicKeys));
    const vaultPem = write('vault.pem', record.ring.publicKeys.keys[0]!.publicKeyPem);
    expect(run([resigned]).code).toBe(0);
    const pinnedKeys = run([resigned, '--keys', published]);
    expect(pinnedKeys.code).toBe(1);
    expect(pinnedKeys.out).toMatch(new RegExp(`^ {2}head: signed by key ${impostor.keyId}, which is not among the trusted keys`, 'm'));
    expect(run([resigned, '--key', vaultPem]).code).toBe(1);
    const genuine = run(['good.zip', '--keys', 'published-keys.json']);
    expect(genuine.code).toBe(0);
    expect(genuine.out).toContain('Trusted key:  pinned from published-keys.json');
  });

  it('exits 2 when there is nothing it can read', () => {
    const none = run([]);
    expect(none.code).toBe(2);
    expect(none.err).toContain('Usage: npm run verify-evidence -- <bundle.zip>');
    const missing = run(['no-such.zip']);
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/Cannot read no-such.zip/);
    expect(run(['good.zip', '--keys', 'good.zip']).code).toBe(2);
    const garbage = run([write('garbage.zip', 'not a zip')]);
    expect(garbage.code).toBe(1);
    expect(garbage.out).toMatch(/bundle: not a readable ZIP file/);
  });
});
