// The SPA's tailwind-merge configuration, cut to the class groups the app uses (issue 10, first load).
//
// `cn()` (apps/web/src/lib/cn.ts) lets a later Tailwind utility override an earlier one of the same group
// (`px-4` then `px-2`). tailwind-merge's default configuration knows every group of Tailwind 4, about 6 of
// the library's 8.4 KB gzipped, in the first load of every page. This script reads every string in
// apps/web/src, finds the class groups its classes belong to (in the default configuration), and writes apps/web/src/lib/tw-merge-config.ts: those groups exactly as the default
// configuration defines them, the theme scales they use, and their conflicts among themselves. A class of
// any other group is left as it is by `cn()`, as tailwind-merge leaves a class it does not know.
//
// The spec (tw-merge-config.spec.ts) fails when the written file is not what this script writes for today's
// sources, and compares `cn()` with the default twMerge on every pair of the app's classes.
//
//   node tools/build/tw-merge-config.mjs           writes the file
//   node tools/build/tw-merge-config.mjs --check   exit 1 when it is out of date
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTailwindMerge, getDefaultConfig, validators } from 'tailwind-merge';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const WEB_SOURCES = join(root, 'apps/web/src');
export const CONFIG_FILE = join(WEB_SOURCES, 'lib/tw-merge-config.ts');

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

/**
 * The default configuration's groups of each class of `words` (skipping words that are no class). Found with
 * the library's public API: a class is of group G when a merge that knows only G drops its repetition.
 */
export function classGroupsOf(words, defaults = getDefaultConfig()) {
  const isClass = (merge, word) => merge(`${word} ${word}`) === word;
  const full = createTailwindMerge(() => defaults);
  const classes = words.filter((word) => isClass(full, word));
  const groups = new Map(classes.map((word) => [word, []]));
  for (const [id, definition] of Object.entries(defaults.classGroups)) {
    const only = createTailwindMerge(() => ({
      ...defaults,
      classGroups: { [id]: definition },
      conflictingClassGroups: {},
      conflictingClassGroupModifiers: {},
      postfixLookupClassGroups: [],
    }));
    for (const word of classes) if (isClass(only, word)) groups.get(word).push(id);
  }
  return groups;
}

const validatorNames = new Map(Object.entries(validators).map(([name, fn]) => [fn, name]));

/** A class definition of the default configuration as source: strings, validators, theme getters, objects. */
function definitionSource(value, themeKeys) {
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((item) => definitionSource(item, themeKeys)).join(', ')}]`;
  if (typeof value === 'function') {
    if (value.isThemeGetter) {
      themeKeys.add(value.themeKey);
      return `fromTheme(${JSON.stringify(value.themeKey)})`;
    }
    const name = validatorNames.get(value);
    if (!name) throw new Error(`tw-merge-config: a function the library does not export (${value.toString().slice(0, 60)})`);
    return `v.${name}`;
  }
  if (value && typeof value === 'object') {
    return `{ ${Object.entries(value).map(([key, item]) => `${JSON.stringify(key)}: ${definitionSource(item, themeKeys)}`).join(', ')} }`;
  }
  throw new Error(`tw-merge-config: unexpected definition ${String(value)}`);
}

/** The configuration file's text for the groups the app's classes belong to. */
export function configSource(words = classVocabulary()) {
  const defaults = getDefaultConfig();
  const known = ['cacheSize', 'theme', 'classGroups', 'conflictingClassGroups', 'conflictingClassGroupModifiers', 'postfixLookupClassGroups', 'orderSensitiveModifiers'];
  const unknown = Object.keys(defaults).filter((key) => !known.includes(key));
  if (unknown.length) throw new Error(`tw-merge-config: the default configuration has parts this script does not copy: ${unknown.join(', ')}`);
  const used = new Set([...classGroupsOf(words, defaults).values()].flat());
  const groupIds = Object.keys(defaults.classGroups).filter((id) => used.has(id));
  const themeKeys = new Set();
  const classGroups = groupIds.map((id) => `    ${JSON.stringify(id)}: ${definitionSource(defaults.classGroups[id], themeKeys)},`);
  // A theme scale may name another (none does in 3.7; the loop would follow it).
  const theme = [];
  const written = new Set();
  for (let pending = [...themeKeys]; pending.length; pending = [...themeKeys].filter((key) => !written.has(key))) {
    for (const key of pending.sort()) {
      written.add(key);
      theme.push(`    ${JSON.stringify(key)}: ${definitionSource(defaults.theme[key] ?? [], themeKeys)},`);
    }
  }
  const conflicts = (table) =>
    groupIds
      .map((id) => [id, (table[id] ?? []).filter((other) => used.has(other))])
      .filter(([, others]) => others.length)
      .map(([id, others]) => `    ${JSON.stringify(id)}: ${JSON.stringify(others)},`);
  const version = JSON.parse(readFileSync(join(root, 'node_modules/tailwind-merge/package.json'), 'utf8')).version;
  return `// Written by tools/build/tw-merge-config.mjs from tailwind-merge ${version}'s default configuration: the ${groupIds.length}
// class groups of the ${relative(root, WEB_SOURCES)} classes (of ${Object.keys(defaults.classGroups).length}). Do not edit; run the script after using a
// class of another group (its spec fails until then).
import { fromTheme, validators as v } from 'tailwind-merge';

export const TW_MERGE_CONFIG = {
  cacheSize: ${defaults.cacheSize},
  theme: {
${theme.join('\n')}
  },
  classGroups: {
${classGroups.join('\n')}
  },
  conflictingClassGroups: {
${conflicts(defaults.conflictingClassGroups).join('\n')}
  },
  conflictingClassGroupModifiers: {
${conflicts(defaults.conflictingClassGroupModifiers).join('\n')}
  },
  postfixLookupClassGroups: ${JSON.stringify(defaults.postfixLookupClassGroups.filter((id) => used.has(id)))},
  orderSensitiveModifiers: ${JSON.stringify(defaults.orderSensitiveModifiers)},
};
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
