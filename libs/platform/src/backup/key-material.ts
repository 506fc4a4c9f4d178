import { copyFile, chmod, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileSha256, type KeyEntry } from './manifest.js';

/**
 * Key material: the files of the keys folder (token signing pairs, the evidence key that old
 * bundles verify against) and the sealing and signing secrets the operator's environment holds
 * (`secrets.json`: a secret given as a path to a PEM file is kept as the PEM itself). Without
 * them a restored vault cannot sign anyone in, verify an evidence bundle or open a sealed link.
 */
export const SECRETS_FILE = 'secrets.json';

/** Copies the key files and writes the secrets into `staged`; returns what the manifest records. */
export async function stageKeys(keysDir: string, secrets: Record<string, string>, staged: string): Promise<KeyEntry[]> {
  await mkdir(staged, { recursive: true, mode: 0o700 });
  const names: string[] = [];
  if (existsSync(keysDir)) {
    for (const entry of await readdir(keysDir, { withFileTypes: true })) {
      if (entry.isFile() && entry.name !== SECRETS_FILE) {
        await copyFile(join(keysDir, entry.name), join(staged, entry.name));
        names.push(entry.name);
      }
    }
  }
  if (Object.keys(secrets).length) {
    const values: Record<string, string> = {};
    for (const [name, value] of Object.entries(secrets)) {
      const isFile = !value.includes('\n') && existsSync(value) && (await stat(value)).isFile();
      values[name] = isFile ? await readFile(value, 'utf8') : value;
    }
    await writeFile(join(staged, SECRETS_FILE), JSON.stringify(values, null, 2), { mode: 0o600 });
    names.push(SECRETS_FILE);
  }
  const entries: KeyEntry[] = [];
  for (const name of names.sort()) entries.push({ file: name, ...(await fileSha256(join(staged, name))) });
  return entries;
}

/** Key files of the target that exist with other contents than the snapshot's (a restore never overwrites a key). */
export async function conflictingKeys(entries: KeyEntry[], keysDir: string): Promise<string[]> {
  const conflicts: string[] = [];
  for (const entry of entries) {
    const path = join(keysDir, entry.file);
    if (existsSync(path) && (await fileSha256(path)).sha256 !== entry.sha256) conflicts.push(path);
  }
  return conflicts;
}

/** Writes the snapshot's key files into `keysDir` (created 0700, each file 0600). */
export async function writeKeys(entries: KeyEntry[], staged: string, keysDir: string): Promise<void> {
  await mkdir(keysDir, { recursive: true, mode: 0o700 });
  for (const entry of entries) {
    const target = join(keysDir, entry.file);
    await copyFile(join(staged, entry.file), target);
    // Public halves may be read by anyone, as tools/dev/keys.mjs writes them.
    await chmod(target, entry.file.endsWith('-public.pem') ? 0o644 : 0o600);
  }
}
