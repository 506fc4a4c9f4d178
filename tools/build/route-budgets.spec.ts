import { budgetFor, firstLoadFiles, pagesWithoutQueries, QUERY_CLIENT_MODULE, ROUTE_BUDGET_EXCEPTIONS, ROUTE_BUDGET_KB, routeSizes } from './route-budgets.mjs';

// A manifest shaped like vite's: the entry imports react and the router; two pages load per route and
// share a chunk; one page also imports something only on demand.
const manifest = {
  'index.html': { file: 'assets/index.js', imports: ['_react.js', '_router.js'], isEntry: true },
  '_react.js': { file: 'assets/react.js' },
  '_router.js': { file: 'assets/router.js', imports: ['_react.js'] },
  '_card.js': { file: 'assets/card.js', imports: ['_react.js'] },
  'src/pages/letters/LettersPage.tsx': { file: 'assets/LettersPage.js', imports: ['_card.js'], dynamicImports: ['src/pages/letters/wizard.tsx'], isDynamicEntry: true },
  'src/pages/letters/wizard.tsx': { file: 'assets/wizard.js', isDynamicEntry: false },
  'src/pages/landing/LandingPage.tsx': { file: 'assets/LandingPage.js', imports: ['_card.js'], isDynamicEntry: true },
  'index.css': { file: 'assets/index.css' },
  'src/app/query-client.ts': { file: 'assets/query-client.js', imports: ['_query-core.js'], isDynamicEntry: true },
  '_query-core.js': { file: 'assets/query-core.js' },
};
const sizes: Record<string, number> = {
  'assets/index.js': 10, 'assets/react.js': 60, 'assets/router.js': 30, 'assets/card.js': 5, 'assets/LettersPage.js': 20, 'assets/wizard.js': 500, 'assets/LandingPage.js': 7, 'assets/query-client.js': 3, 'assets/query-core.js': 9,
};

describe('route budgets', () => {
  it('counts the entry, the page and what they import statically, each file once, never what loads on demand', () => {
    expect(firstLoadFiles(manifest, 'src/pages/letters/LettersPage.tsx').sort()).toEqual(
      ['assets/LettersPage.js', 'assets/card.js', 'assets/index.js', 'assets/react.js', 'assets/router.js'],
    );
    const noQueries = new Set(['src/pages/letters/LettersPage.tsx', 'src/pages/landing/LandingPage.tsx']);
    const byPage = Object.fromEntries(routeSizes(manifest, (file) => sizes[file]!, noQueries).map((r) => [r.page, r.gzBytes]));
    expect(byPage).toEqual({ 'src/pages/letters/LettersPage.tsx': 125, 'src/pages/landing/LandingPage.tsx': 112 });
  });

  it('counts the query client for the routes that wait for it, not for those routes.tsx loads without queries', () => {
    const routesSource = [
      "const LandingPage = page(() => import('../pages/landing/LandingPage.js'), 'LandingPage', { queries: false });",
      "const LettersPage = page(() => import('../pages/letters/LettersPage.js'), 'LettersPage');",
    ].join('\n');
    const without = pagesWithoutQueries(routesSource);
    expect([...without]).toEqual(['src/pages/landing/LandingPage.tsx']);
    const byPage = Object.fromEntries(routeSizes(manifest, (file) => sizes[file]!, without).map((r) => [r.page, r.gzBytes]));
    expect(byPage).toEqual({ 'src/pages/letters/LettersPage.tsx': 125 + 12, 'src/pages/landing/LandingPage.tsx': 112 });
    expect(QUERY_CLIENT_MODULE).toBe('src/app/query-client.ts');
  });

  it('gives every route the default budget unless it is listed with a larger one', () => {
    expect(budgetFor('src/pages/landing/LandingPage.tsx')).toBe(ROUTE_BUDGET_KB);
    for (const [page, kb] of Object.entries(ROUTE_BUDGET_EXCEPTIONS)) {
      expect(budgetFor(page)).toBe(kb);
      expect(kb).toBeGreaterThan(ROUTE_BUDGET_KB);
    }
  });
});
