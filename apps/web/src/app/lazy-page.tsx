import { lazy, useState, type ComponentType, type ReactNode } from 'react';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- React.lazy's own bound: any props
export type AnyComponent = ComponentType<any>;
export type LazyPage = AnyComponent & { preload(): Promise<AnyComponent> };

/**
 * A page in a chunk of its own, fetched when its route is first shown: the first load carries the
 * shell and one page, not every page (RootLayout shows the shell at once and the page when it arrives).
 * Like React.lazy, but a page whose code is already here renders at once: main.tsx loads the page of a
 * prerendered address before hydrating it, so the whole page hydrates in one pass (a boundary still
 * waiting for its code when the session arrives would be thrown away and rendered again).
 * TanStack Query's provider loads beside the page unless `queries: false` (the public pages that do not
 * query, so their first load goes without the library; tools/build/route-budgets.mjs lists them too).
 */
export function page<K extends string, M extends Record<K, AnyComponent>>(load: () => Promise<M>, name: K, { queries = true } = {}): LazyPage {
  let loaded: AnyComponent | undefined;
  let loading: Promise<AnyComponent> | undefined;
  const preload = () =>
    (loading ??= queries
      ? Promise.all([load(), import('../queries/query-provider.js')]).then(([module, { QueryProvider }]) => (loaded = withQueries(module[name], QueryProvider)))
      : load().then((module) => (loaded = module[name])));
  const Lazy = lazy(async () => ({ default: await preload() }));
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- passes the route's props through
  function Page(props: any) {
    // Chosen once per mount: switching from Lazy to the loaded page later would remount it (and lose its state).
    const [Shown] = useState(() => loaded ?? Lazy);
    return <Shown {...props} />;
  }
  Page.displayName = name;
  return Object.assign(Page, { preload });
}

/** `Page` inside TanStack Query's provider, which loads beside the page (public pages go without: issue 10). */
function withQueries(Page: AnyComponent, QueryProvider: ComponentType<{ children: ReactNode }>): AnyComponent {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- passes the route's props through
  const WithQueries = (props: any) => (
    <QueryProvider>
      <Page {...props} />
    </QueryProvider>
  );
  WithQueries.displayName = Page.displayName ?? Page.name;
  return WithQueries;
}
