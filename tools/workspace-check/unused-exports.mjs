#!/usr/bin/env node
// Dead exports: every exported name of the workspace's sources (apps, libs, tools) that no other file
// imports, re-exports or destructures from a dynamic import, and that its own file does not use either.
// (A name its own file uses, such as the type of an exported function's parameter, is part of that
// file's interface and may stay exported.) Names are matched by name across the workspace, not by
// module: two exports sharing a name count as used when either is, so it finds fewer than a resolver
// would, never a used one. Run by the lint tier (tools/test/run-all.mjs); prints each finding and
// exits 1 when there is one.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

// The workspace's root, or the directory given (the spec's fixture).
const root = process.argv[2] ?? fileURLToPath(new URL('../..', import.meta.url));
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'coverage', 'test-results', 'playwright-report', '.data', '.nx']);

/**
 * Files whose exports are read by something other than an import of the workspace, so that no import
 * of them is expected.
 */
const ENTRY_POINTS = [
  // Specs, and the tools' configuration files (jest, vite, playwright, eslint) read by their tool.
  /\.spec\.tsx?$/,
  /\.config\.m?[jt]s$/,
  // Declarations of plain JavaScript modules: their .mjs is the export, the .d.mts its type.
  /\.d\.m?ts$/,
  // Generated files (apps/web/src/api/openapi.gen.ts): their exports are the generator's, used or not.
  /\.gen\.ts$/,
];
// Modules loaded with import('./relative/path.js') are entry points too (a lazy page, a chunk): the
// loader picks their exports by a name in a string or a structural type (apps/web/src/app/routes.tsx).


function* sourceFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIPPED_DIRS.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (/\.(ts|tsx|mts|mjs)$/.test(entry.name)) yield path;
  }
}

const hasExport = (node) => ts.getModifiers?.(node)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword) ?? false;
const hasDefault = (node) => ts.getModifiers?.(node)?.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword) ?? false;

/** What one file exports (name -> its line) and which names it takes from other modules. */
function scan(file) {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : undefined);
  const exported = new Map();
  const imported = new Set();
  const namespaces = new Set();
  const loaded = [];
  const line = (node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
  const declare = (name, node) => exported.set(name, line(node));

  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement)) {
      const bindings = statement.importClause?.namedBindings;
      if (bindings && ts.isNamedImports(bindings)) for (const s of bindings.elements) imported.add((s.propertyName ?? s.name).text);
      if (bindings && ts.isNamespaceImport(bindings)) namespaces.add(bindings.name.text);
    } else if (ts.isExportDeclaration(statement)) {
      const clause = statement.exportClause;
      if (clause && ts.isNamedExports(clause)) {
        for (const s of clause.elements) {
          // `export { a } from './x'` uses x's `a`; `export { a }` exports this file's own `a`.
          if (statement.moduleSpecifier) imported.add((s.propertyName ?? s.name).text);
          else declare(s.name.text, s);
        }
      }
    } else if (hasExport(statement) && !hasDefault(statement)) {
      if (ts.isVariableStatement(statement)) {
        for (const d of statement.declarationList.declarations) if (ts.isIdentifier(d.name)) declare(d.name.text, d);
      } else if (statement.name && ts.isIdentifier(statement.name)) {
        declare(statement.name.text, statement);
      }
    }
  }
  // Names taken from a module loaded at run time (`const { a } = await import(...)`), or read off a
  // namespace import (`ns.a`) or a dynamic import's module (`import('./x').then((m) => m.a)`), or named
  // as a type in place (`import('./x').A`).
  const visit = (node) => {
    if (ts.isVariableDeclaration(node) && ts.isObjectBindingPattern(node.name) && node.initializer && /\bimport\(|\bload\(/.test(node.initializer.getText(source))) {
      for (const e of node.name.elements) imported.add((e.propertyName && ts.isIdentifier(e.propertyName) ? e.propertyName : e.name).getText(source));
    }
    if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression) && namespaces.has(node.expression.text)) imported.add(node.name.text);
    // A type read off a module in place: `import('./config.js').ServiceConfig`.
    if (ts.isImportTypeNode(node) && node.qualifier) imported.add(ts.isIdentifier(node.qualifier) ? node.qualifier.text : node.qualifier.right.text);
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [specifier] = node.arguments;
      if (specifier && ts.isStringLiteralLike(specifier) && specifier.text.startsWith('.')) loaded.push(specifier.text);
      const then = node.parent;
      if (ts.isPropertyAccessExpression(then) && then.name.text === 'then' && ts.isCallExpression(then.parent)) {
        const fn = then.parent.arguments[0];
        if (fn) fn.forEachChild(function reads(child) {
          if (ts.isPropertyAccessExpression(child)) imported.add(child.name.text);
          child.forEachChild(reads);
        });
      }
    }
    node.forEachChild(visit);
  };
  visit(source);
  return { exported, imported, loaded, text };
}

const files = ['apps', 'libs', 'tools'].filter((group) => existsSync(join(root, group))).flatMap((group) => [...sourceFiles(join(root, group))]);
const scans = new Map(files.map((file) => [file, scan(file)]));
/** How many files import each name. */
const importers = new Map();
for (const { imported } of scans.values()) for (const name of imported) importers.set(name, (importers.get(name) ?? 0) + 1);
/** The files `import('./x.js')` loads: x.ts, x.tsx, x.mts or x.mjs beside the importer. */
const dynamicallyLoaded = new Set();
for (const [file, { loaded }] of scans) {
  for (const specifier of loaded) {
    const base = join(dirname(file), specifier).replace(/\.m?js$/, '');
    for (const ext of ['.ts', '.tsx', '.mts', '.mjs']) if (scans.has(base + ext)) dynamicallyLoaded.add(base + ext);
  }
}

const findings = [];
for (const [file, { exported, imported, text }] of scans) {
  const path = relative(root, file);
  if (ENTRY_POINTS.some((pattern) => pattern.test(path)) || dynamicallyLoaded.has(file)) continue;
  for (const [name, line] of exported) {
    // Used when a file other than this one imports it (this file importing the name counts it once).
    if ((importers.get(name) ?? 0) - (imported.has(name) ? 1 : 0) > 0) continue;
    if ((text.match(new RegExp(`\\b${name}\\b`, 'g')) ?? []).length > 1) continue;
    findings.push(`${path}:${line} ${name}`);
  }
}

if (findings.length) {
  console.log(findings.join('\n'));
  console.log(`\n${findings.length} exports that nothing uses: delete them (tools/workspace-check/unused-exports.mjs)`);
  process.exitCode = 1;
} else {
  console.log(`unused exports: none in ${files.length} files`);
}
