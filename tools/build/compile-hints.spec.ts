import { addCompileHint, COMPILE_HINT, compileHints, eagerChunks } from './compile-hints.mjs';

type Chunk = { type: 'chunk'; code: string; isEntry: boolean; imports: string[] };
const chunk = (code: string, imports: string[] = [], isEntry = false): Chunk => ({ type: 'chunk', code, isEntry, imports });
const mapOf = (mappings: string) => ({ type: 'asset' as const, source: JSON.stringify({ version: 3, sources: ['a.ts'], names: [], mappings }) });

describe('compile hints', () => {
  it('marks the entry and what it imports statically, not the pages, dynamic imports or assets', () => {
    const bundle = {
      'assets/index.js': chunk('entry', ['assets/react.js', 'assets/router.js'], true),
      'assets/react.js': chunk('react'),
      'assets/router.js': chunk('router', ['assets/react.js']),
      'assets/LettersPage.js': chunk('page', ['assets/card.js', 'assets/react.js']),
      'assets/card.js': chunk('card'),
      'assets/index.css': { type: 'asset' as const, source: 'body{}' },
    };
    expect([...eagerChunks(bundle)].sort()).toEqual(['assets/index.js', 'assets/react.js', 'assets/router.js']);
  });

  it('puts the hint first and shifts the source map by one line, once', () => {
    const code = chunk('let a=1;\nlet b=2;');
    const map = mapOf('AAAA;AACA');
    addCompileHint(code, map);
    addCompileHint(code, map);
    expect(code.code).toBe(`${COMPILE_HINT}let a=1;\nlet b=2;`);
    expect(COMPILE_HINT).toBe('//# allFunctionsCalledOnLoad\n');
    expect(JSON.parse(map.source).mappings).toBe(';AAAA;AACA');
  });

  it('runs last, on the whole bundle, as a build-only plugin', () => {
    const plugin = compileHints();
    const bundle = {
      'assets/index.js': chunk('entry', ['assets/react.js'], true),
      'assets/index.js.map': mapOf('AAAA'),
      'assets/react.js': chunk('react'),
      'assets/page.js': chunk('page', ['assets/react.js']),
    };
    plugin.generateBundle.handler({}, bundle);
    expect(plugin).toMatchObject({ apply: 'build', generateBundle: { order: 'post' } });
    expect(bundle['assets/index.js'].code.startsWith(COMPILE_HINT)).toBe(true);
    expect(bundle['assets/react.js'].code.startsWith(COMPILE_HINT)).toBe(true);
    expect(bundle['assets/page.js'].code).toBe('page');
    expect(JSON.parse(bundle['assets/index.js.map'].source).mappings).toBe(';AAAA');
  });
});
