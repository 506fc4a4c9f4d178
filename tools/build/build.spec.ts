import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildProject } from './build.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('the build ships no test-only code', () => {
  let out: string;
  beforeAll(async () => { out = await mkdtemp(join(tmpdir(), 'lv-build-spec-')); });
  afterAll(async () => { await rm(out, { recursive: true, force: true }); });

  it('leaves test-support/ folders and specs of libs/platform out of its dist, and compiles the rest', async () => {
    const count = await buildProject(join(root, 'libs', 'platform'), out);
    const files = (await readdir(out, { recursive: true })).map(String);
    expect(count).toBeGreaterThan(10);
    expect(files).toContain(join('event-store', 'outbox-relay.js'));
    expect(files.filter((f) => f.includes('test-support') || /\.spec\.js/.test(f))).toEqual([]);
  });
});
