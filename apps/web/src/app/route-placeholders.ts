import { page, type LazyPage } from './lazy-page.js';
import { normalizePath } from '../auth/route-access.js';

/**
 * What a protected page shows inside the shell while the session loads, instead of the full-screen
 * spinner (issue 10: the vault home paints without waiting on the session's round trip). A placeholder
 * holds only what the page shows to anyone before its data (headings, empty tiles): nothing of the
 * user's. The vault home is prerendered with it (tools/build/prerender.mjs), so its text is on screen
 * with the HTML; a visitor who turns out to be signed out is then sent to the sign-in page as before.
 */
const PLACEHOLDERS: Record<string, LazyPage> = {
  '/vault': page(() => import('../pages/vault/VaultHomeIntro.js'), 'VaultHomePlaceholder', { queries: false }),
};

/** The placeholder of the page at `pathname`, if it has one. */
export function placeholderFor(pathname: string): LazyPage | undefined {
  return PLACEHOLDERS[normalizePath(pathname)];
}
