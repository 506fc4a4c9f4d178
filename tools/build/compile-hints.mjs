// Explicit compile hints (issue 10, first load: total blocking time). V8 compiles a script's functions
// lazily, on the main thread, the first time each is called; for the chunks every page runs at once
// (React, the router, the app's shell) that is most of their functions, during hydration. A script
// that starts with the magic comment below is compiled whole, eagerly, on a background thread while it
// downloads (Chrome 136+; other browsers read it as a comment). Measured on the landing page with
// Chromium's 4x CPU slowdown: main-thread JavaScript per load 396 → 284-336 ms (tools/bench/README.md).
// Only the entry chunk and what it imports statically get it: pages, menus and dialogs load on
// demand and are compiled as they always were.

export const COMPILE_HINT = '//# allFunctionsCalledOnLoad\n';

/**
 * File names of the chunks that load with every page: the entry chunks and the closure of their
 * static imports. `bundle` is Rollup/Rolldown's output bundle (file name -> chunk or asset).
 */
export function eagerChunks(bundle) {
  const eager = new Set();
  const visit = (fileName) => {
    const chunk = bundle[fileName];
    if (!chunk || chunk.type !== 'chunk' || eager.has(fileName)) return;
    eager.add(fileName);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const [fileName, chunk] of Object.entries(bundle)) if (chunk.type === 'chunk' && chunk.isEntry) visit(fileName);
  return eager;
}

/**
 * Puts COMPILE_HINT at the top of `chunk`'s code. Its source map, already emitted as the asset
 * `mapAsset` (`<file>.map`) when the bundle is generated, gains an empty first line, so every mapping
 * still points where it did.
 */
export function addCompileHint(chunk, mapAsset) {
  if (chunk.code.startsWith(COMPILE_HINT)) return;
  chunk.code = COMPILE_HINT + chunk.code;
  if (mapAsset?.type === 'asset') {
    const map = JSON.parse(String(mapAsset.source));
    map.mappings = `;${map.mappings}`;
    mapAsset.source = JSON.stringify(map);
  }
}

/** The Vite plugin: the hint on the eager chunks of a production build. */
export function compileHints() {
  return {
    name: 'legacy-vault:compile-hints',
    apply: 'build',
    // Last: Vite's own generateBundle rewrites the entry's code (its preload list).
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        for (const fileName of eagerChunks(bundle)) addCompileHint(bundle[fileName], bundle[`${fileName}.map`]);
      },
    },
  };
}
