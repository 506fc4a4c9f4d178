import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * libs/platform knows no product: it may take from @lv/contracts only generic shapes and helpers
 * (envelopes of events, RPCs, queues and errors; a UUID test), never a service's plans, sections,
 * letters, secrets or words. Product rules reach the platform as arguments (a predicate, a schema
 * mark), not as imports. The names still imported for a product reason are listed with the reason,
 * and the list may only shrink.
 */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const platformSrc = join(root, 'libs', 'platform', 'src');

/** Generic shapes and helpers: no product concept in them. */
const GENERIC = new Set([
  'isUuid',
  'ErrorBody', 'ErrorCode', 'ErrorCodes',
  'EventDeclaration', 'EventMetadata', 'PublishedEvent', 'ReceivedEvent', 'receiveEvent',
  'QueueDeclaration',
  'PayloadInput', 'PayloadOf', 'ReplyOf', 'RequestMeta', 'RpcDeclaration', 'RpcRequest',
  'healthRpc', 'ServiceHealthReply',
  'streamNameFor',
]);

/** Product names the platform still imports, and why they have not moved yet. */
const PRODUCT_DEBT: Record<string, string> = {
  AccessTokenClaims: "access tokens are minted and read by the platform's signer and verifier with the plan claim; a claims codec passed at construction would free them (75 call sites)",
  SubscriptionTier: 'the plan claim on a verified account (UserCaller.tier), with AccessTokenClaims',
  VIEW_SECTIONS: 'viewer scopes are the vault sections; the viewer-token verifier and @Readers check them',
  ViewSection: 'the type of a viewer scope, with VIEW_SECTIONS',
  AccessMessages: "the viewer's words for an expired view and an unshared section, thrown by the platform's checks",
  ServiceName: 'streams, consumers and the service runner are typed by the registry of services',
  SERVICES: 'a STACK_ID equal to a service name would fall inside that service unscoped stream (messaging/subjects.ts)',
};

function* sources(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'test-support') yield* sources(path);
    } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') && !entry.name.endsWith('.d.ts')) {
      yield path;
    }
  }
}

const IMPORT = /(?:import|export)\s+(?:type\s+)?\{([^}]*)\}\s*from\s*['"]([^'"]+)['"]|(?:import|export)\s[^'"{]*?from\s*['"]([^'"]+)['"]/g;

interface Import { file: string; specifier: string; names: string[] }

function importsOf(file: string): Import[] {
  const found: Import[] = [];
  for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
    const names = (match[1] ?? '').split(',').map((part) => part.trim().replace(/^type\s+/, '').split(/\s+as\s+/)[0]!).filter(Boolean);
    found.push({ file: relative(root, file), specifier: match[2] ?? match[3]!, names });
  }
  return found;
}

const all = [...sources(platformSrc)].flatMap(importsOf);
const fromContracts = all.filter((i) => i.specifier === '@lv/contracts' || i.specifier.startsWith('@lv/contracts/'));

/** The platform's module (its first folder under src) a file belongs to. */
const moduleOf = (path: string) => relative(platformSrc, path).split(sep)[0]!;

/** The modules that reach `start` again through relative imports, as a path (empty: no cycle). */
function cycleThrough(start: string, edges: Map<string, Set<string>>): string[] {
  const path: string[] = [];
  const seen = new Set<string>();
  const visit = (node: string): boolean => {
    path.push(node);
    for (const next of edges.get(node) ?? []) {
      if (next === start) return true;
      if (!seen.has(next)) {
        seen.add(next);
        if (visit(next)) return true;
      }
    }
    path.pop();
    return false;
  };
  return visit(start) ? [...path, start] : [];
}

describe('the platform knows no product', () => {
  it('imports from contracts only generic names, or a product name listed with its reason', () => {
    const unexplained = fromContracts.flatMap((i) => i.names.filter((name) => !GENERIC.has(name) && !(name in PRODUCT_DEBT)).map((name) => `${i.file}: ${name}`));
    expect(unexplained).toEqual([]);
  });

  it('imports no whole contracts namespace (its names could not be checked)', () => {
    expect(fromContracts.filter((i) => i.names.length === 0).map((i) => i.file)).toEqual([]);
  });

  it('lists only product names it still imports (the list shrinks as they move out)', () => {
    const imported = new Set(fromContracts.flatMap((i) => i.names));
    expect(Object.keys(PRODUCT_DEBT).filter((name) => !imported.has(name))).toEqual([]);
  });

  it('has no import cycle between its modules', () => {
    const edges = new Map<string, Set<string>>();
    for (const i of all.filter((x) => x.specifier.startsWith('.'))) {
      const from = moduleOf(join(root, i.file));
      const to = moduleOf(resolve(dirname(join(root, i.file)), i.specifier));
      if (from !== to) edges.set(from, (edges.get(from) ?? new Set()).add(to));
    }
    const cycles = [...edges.keys()].map((module) => cycleThrough(module, edges)).filter((cycle) => cycle.length).map((cycle) => cycle.join(' -> '));
    expect(cycles).toEqual([]);
  });
});
