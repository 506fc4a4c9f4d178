import { createContext, useContext, type ReactNode } from 'react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';

/** A client handed to AppProviders (the specs' own); without one, the app's. */
export const GivenQueryClient = createContext<QueryClient | null>(null);

let appClient: QueryClient | undefined;
let loading: Promise<QueryClient> | undefined;

/**
 * The app's QueryClient, created on first need: TanStack Query's core loads with the first page that
 * reads server data, not with pages that read none (the landing and sign-in pages; issue 10).
 */
export function loadQueryClient(): Promise<QueryClient> {
  loading ??= import('./query-client.js').then(({ createQueryClient }) => (appClient = createQueryClient()));
  return loading;
}

/** Provides the given client, or the app's (whoever renders this has awaited loadQueryClient()). */
export function WithQueryClient({ children }: { children: ReactNode }) {
  const client = useContext(GivenQueryClient) ?? appClient;
  if (!client) throw new Error('WithQueryClient rendered before loadQueryClient() resolved');
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
