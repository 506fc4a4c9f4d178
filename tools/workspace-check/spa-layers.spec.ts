import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The SPA's folders stand in layers: app (routes) on top, then the pages, the shell, components, and
 * at the bottom queries, auth, api, drafts and lib. A folder may import from folders below it only,
 * so no two folders import each other, directly or round a longer loop (a loop is how a change in a
 * low folder ends up needing a change in a page). Each page folder is its own room.
 */
const webSource = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'apps', 'web', 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'test' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.(spec|test)\.|test-support|\.d\.ts$/.test(entry.name) ? [path] : [];
  });
}

/** The folder a file belongs to: `pages/<name>` for a page, else the top folder (or the file itself). */
function roomOf(file: string): string {
  const parts = relative(webSource, file).split('/');
  if (parts[0] === 'pages' && parts.length > 2) return `pages/${parts[1]}`;
  return parts[0]!;
}

function roomGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of sourceFiles(webSource)) {
    const from = roomOf(file);
    const targets = graph.get(from) ?? new Set<string>();
    graph.set(from, targets);
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(/(?:from|import\()\s*['"](\.[^'"]+)['"]/g)) {
      const to = roomOf(normalize(join(dirname(file), specifier!)));
      if (to !== from) targets.add(to);
    }
  }
  return graph;
}

/** Every loop of folders (strongly connected components of more than one folder), Tarjan's way. */
function folderLoops(graph: Map<string, Set<string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const loops: string[][] = [];
  const visit = (room: string) => {
    index.set(room, next);
    low.set(room, next++);
    stack.push(room);
    onStack.add(room);
    for (const to of graph.get(room) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(room, Math.min(low.get(room)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(room, Math.min(low.get(room)!, index.get(to)!));
    }
    if (low.get(room) !== index.get(room)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== room);
    if (component.length > 1) loops.push(component.sort());
  };
  for (const room of graph.keys()) if (!index.has(room)) visit(room);
  return loops;
}

describe('the SPA folders stand in layers', () => {
  it('finds a loop when there is one (the check itself)', () => {
    const graph = new Map([['shell', new Set(['pages/access'])], ['pages/access', new Set(['pages/letters'])], ['pages/letters', new Set(['shell'])], ['api', new Set<string>()]]);
    expect(folderLoops(graph)).toEqual([['pages/access', 'pages/letters', 'shell']]);
  });

  it('no two folders of apps/web/src import each other, directly or round a loop', () => {
    const graph = roomGraph();
    expect(graph.size).toBeGreaterThan(10);
    expect(folderLoops(graph)).toEqual([]);
  });
});
