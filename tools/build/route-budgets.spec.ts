import { readFileSync } from 'node:fs';
import { budgetFor, firstLoadFiles, PAGES_WITHOUT_QUERIES, ROUTE_BUDGET_EXCEPTIONS, ROUTE_BUDGET_KB, routeSizes } from './route-budgets.mjs';

// A manifest shaped like vite's: the entry imports react and the router; two pages load per route and
// share a chunk; one page also imports something only on demand. The letters page queries, so TanStack
// Query's provider loads beside it (routes.tsx); the landing page does not query.
const manifest = {
  'index.html': { file: 'assets/index.js', imports: ['_react.js', '_router.js'], isEntry: true },
  '_react.js': { file: 'assets/react.js' },
  '_router.js': { file: 'assets/router.js', imports: ['_react.js'] },
  '_card.js': { file: 'assets/card.js', imports: ['_react.js'] },
  'src/pages/letters/LettersPage.tsx': { file: 'assets/LettersPage.js', imports: ['_card.js'], dynamicImports: ['src/pages/letters/wizard.tsx'], isDynamicEntry: true },
  'src/pages/letters/wizard.tsx': { file: 'assets/wizard.js', isDynamicEntry: false },
  'src/pages/landing/LandingPage.tsx': { file: 'assets/LandingPage.js', imports: ['_card.js'], isDynamicEntry: true },
  'src/queries/query-provider.tsx': { file: 'assets/query-provider.js', imports: ['_query.js', '_react.js'], isDynamicEntry: true },
  '_query.js': { file: 'assets/query.js', imports: ['_react.js'] },
  'index.css': { file: 'assets/index.css' },
};
const sizes: Record<string, number> = {
  'assets/index.js': 10, 'assets/react.js': 60, 'assets/router.js': 30, 'assets/card.js': 5, 'assets/LettersPage.js': 20, 'assets/wizard.js': 500, 'assets/LandingPage.js': 7,
  'assets/query-provider.js': 1, 'assets/query.js': 11,
};

describe('route budgets', () => {
  it('counts the entry, the page and what they import statically, each file once, never what loads on demand', () => {
    expect(firstLoadFiles(manifest, 'src/pages/letters/LettersPage.tsx').sort()).toEqual(
      ['assets/LettersPage.js', 'assets/card.js', 'assets/index.js', 'assets/query-provider.js', 'assets/query.js', 'assets/react.js', 'assets/router.js'],
    );
    const byPage = Object.fromEntries(routeSizes(manifest, (file) => sizes[file]!).map((r) => [r.page, r.gzBytes]));
    expect(byPage).toEqual({ 'src/pages/letters/LettersPage.tsx': 137, 'src/pages/landing/LandingPage.tsx': 112 });
  });

  it('counts TanStack Query for every page but those routes.tsx and route-placeholders.ts load without it', () => {
    expect(firstLoadFiles(manifest, 'src/pages/landing/LandingPage.tsx')).not.toContain('assets/query.js');
    expect([...PAGES_WITHOUT_QUERIES]).toContain('src/pages/landing/LandingPage.tsx');
    const routesSource = ['routes.tsx', 'route-placeholders.ts'].map((file) => readFileSync(new URL(`../../apps/web/src/app/${file}`, import.meta.url), 'utf8')).join('\n');
    const withoutQueries = [...routesSource.matchAll(/import\('\.\.\/(pages\/[^']+)\.js'\), '\w+', \{ queries: false \}/g)].map((m) => `src/${m[1]}.tsx`);
    expect(new Set(withoutQueries)).toEqual(PAGES_WITHOUT_QUERIES);
  });

  it('gives every route the default budget unless it is listed with a larger one', () => {
    expect(budgetFor('src/pages/landing/LandingPage.tsx')).toBe(ROUTE_BUDGET_KB);
    // A page that queries and is not listed: the library beside it is allowed for.
    expect(budgetFor('src/pages/billing/CheckoutPages.tsx')).toBeGreaterThan(ROUTE_BUDGET_KB);
    for (const [page, kb] of Object.entries(ROUTE_BUDGET_EXCEPTIONS)) {
      expect(budgetFor(page)).toBe(kb);
      expect(kb).toBeGreaterThan(ROUTE_BUDGET_KB);
    }
  });
});
