// The SPA's class-merging table (issues 10 and 37, first load), read off tailwind-merge's own answers.
//
// `cn()` (apps/web/src/lib/cn.ts) lets a later Tailwind utility override an earlier one of the same group
// (`px-4` then `px-2`), as tailwind-merge does. The library with even a configuration cut to the app's class
// groups was 5.2 KB gzipped in the first load of every page; the app only ever merges its own classes, so
// this script asks the library once, at build time, about every pair of them and writes the answers as a
// table (apps/web/src/lib/class-kinds.ts, about 1 KB gzipped): the app's classes in kinds, where a class
// replaces an earlier one of its kind (`h-9` then `h-auto`), and which other kinds each kind replaces
// (`p-4` replaces an earlier `px-2`). tailwind-merge drops an earlier class exactly when a later class it
// keeps replaces it, so pairs are all it takes: `cn()` merges any list of the app's classes as the library does.
// A class the table does not know is kept, as the library keeps a word it does not know; a word written
// twice is kept once.
//
// The spec (tw-merge-config.spec.ts) fails when the written file is not what this script writes for today's
// sources (run it after using a new class), and compares `cn()` with tailwind-merge on every pair of the
// app's classes and on longer lists of them.
//
//   node tools/build/tw-merge-config.mjs           writes the file
//   node tools/build/tw-merge-config.mjs --check   exit 1 when it is out of date
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { twMerge } from 'tailwind-merge';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const WEB_SOURCES = join(root, 'apps/web/src');
export const CONFIG_FILE = join(WEB_SOURCES, 'lib/class-kinds.ts');

const isSourceFile = (name) => /\.(ts|tsx)$/.test(name) && !/\.(spec|test)\.tsx?$/.test(name) && !name.endsWith('.d.ts');

function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return isSourceFile(entry.name) && path !== CONFIG_FILE ? [path] : [];
  });
}

/**
 * Every whitespace-separated word inside a string literal of the app's sources (quotes and template
 * literals; a template's `${…}` parts split it). More than the classes, which is harmless: a word that is
 * not a Tailwind class belongs to no group.
 */
export function classVocabulary(dir = WEB_SOURCES) {
  const words = new Set();
  const literal = /'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)"|`((?:[^`\\]|\\.)*)`/g;
  for (const file of sourceFiles(dir)) {
    const source = readFileSync(file, 'utf8');
    for (const match of source.matchAll(literal)) {
      const text = (match[1] ?? match[2] ?? match[3]).replace(/\$\{[^}]*\}/g, ' ');
      for (const word of text.split(/\s+/)) if (word) words.add(word);
    }
  }
  return [...words].sort();
}

/** The app's Tailwind classes among `words`: those whose repetition tailwind-merge drops (the rest are no class). */
export function appClasses(words = classVocabulary()) {
  return words.filter((word) => twMerge(`${word} ${word}`) === word);
}

/**
 * The app's classes in kinds (classes that every other class treats alike and that replace each other), and
 * for each kind the other kinds it replaces. Kinds of one class that neither replaces nor is replaced by
 * another are left out: `cn()` keeps a word written twice once anyway.
 */
function classKinds(classes = appClasses()) {
  // replaces[i][j]: classes[j] written after classes[i] drops it.
  const replaces = classes.map((earlier) => classes.map((later) => earlier === later || twMerge(`${earlier} ${later}`) === later));
  const byTreatment = new Map();
  classes.forEach((_, i) => {
    const treatment = `${replaces[i].map(Number).join('')}/${replaces.map((row) => Number(row[i])).join('')}`;
    byTreatment.set(treatment, [...(byTreatment.get(treatment) ?? []), i]);
  });
  const relates = (members) => classes.some((_, j) => !members.includes(j) && (replaces[members[0]][j] || replaces[j][members[0]]));
  const kinds = [...byTreatment.values()].filter((members) => members.length > 1 || relates(members));
  return kinds.map((members) => ({
    classes: members.map((i) => classes[i]),
    replaces: kinds.flatMap((other, k) => (other !== members && replaces[other[0]][members[0]] ? [k] : [])),
  }));
}

/** A kind's classes, their common prefix (up to a '-') written once: `h-~9 10`. */
function kindSource(classes) {
  let prefix = classes[0];
  for (const name of classes) while (!name.startsWith(prefix)) prefix = prefix.slice(0, -1);
  prefix = prefix.slice(0, prefix.lastIndexOf('-') + 1);
  if (classes.length < 2 || !prefix || classes.some((name) => name === prefix)) return classes.join(' ');
  return `${prefix}~${classes.map((name) => name.slice(prefix.length)).join(' ')}`;
}

/** The table's file for the app's sources as they are. */
export function configSource(words = classVocabulary()) {
  const kinds = classKinds(appClasses(words));
  const version = JSON.parse(readFileSync(join(root, 'node_modules/tailwind-merge/package.json'), 'utf8')).version;
  for (const name of kinds.flatMap((kind) => kind.classes)) {
    if (/[|~'\\]/.test(name)) throw new Error(`tw-merge-config: the table cannot hold the class ${name}`);
  }
  return `// Written by tools/build/tw-merge-config.mjs from tailwind-merge ${version}'s answers for the classes of
// ${relative(root, WEB_SOURCES)}. Do not edit; run the script after using a new class (its spec fails until then).

/**
 * The app's classes in kinds, '|' between kinds: a class replaces an earlier class of its kind. A kind whose
 * classes share a prefix is written once as \`prefix~\` and the rest of each (\`h-~9 10\` is h-9 and h-10).
 */
export const CLASS_KINDS =
  '${kinds.map((kind) => kindSource(kind.classes)).join('|')}';

/** Per kind (in CLASS_KINDS' order, '|' between kinds), the other kinds whose earlier classes it replaces. */
export const KIND_REPLACES = '${kinds.map((kind) => kind.replaces.join(',')).join('|')}';
`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const source = configSource();
  if (process.argv.includes('--check')) {
    const current = readFileSync(CONFIG_FILE, 'utf8');
    if (current !== source) {
      console.error(`${relative(root, CONFIG_FILE)} is out of date: run node tools/build/tw-merge-config.mjs`);
      process.exit(1);
    }
  } else {
    writeFileSync(CONFIG_FILE, source);
    console.log(`wrote ${relative(root, CONFIG_FILE)}`);
  }
}
