import { isValidElement, lazy, useState, type ComponentType, type ReactNode } from 'react';
import { matchRoutes, type RouteObject } from 'react-router-dom';
import { ErrorPage } from '../pages/errors/ErrorPage.js';
import { NotFoundPage } from '../pages/errors/NotFoundPage.js';
import { RequireAdmin } from './RequireAdmin.js';
import { RootLayout } from './RootLayout.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- React.lazy's own bound: any props
type AnyComponent = ComponentType<any>;
type LazyPage = AnyComponent & { preload(): Promise<AnyComponent> };

/**
 * A page in a chunk of its own, fetched when its route is first shown: the first load carries the
 * shell and one page, not every page (RootLayout shows the shell at once and the page when it arrives).
 * Like React.lazy, but a page whose code is already here renders at once: main.tsx loads the page of a
 * prerendered address before hydrating it, so the whole page hydrates in one pass (a boundary still
 * waiting for its code when the session arrives would be thrown away and rendered again).
 * TanStack Query's provider loads beside the page unless `queries: false` (the public pages that do not
 * query, so their first load goes without the library; tools/build/route-budgets.mjs lists them too).
 */
function page<K extends string, M extends Record<K, AnyComponent>>(load: () => Promise<M>, name: K, { queries = true } = {}): LazyPage {
  let loaded: AnyComponent | undefined;
  let loading: Promise<AnyComponent> | undefined;
  const preload = () =>
    (loading ??= queries
      ? Promise.all([load(), import('./query-provider.js')]).then(([module, { QueryProvider }]) => (loaded = withQueries(module[name], QueryProvider)))
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

/** Loads the code of the pages `pathname` shows (see page()). */
export function preloadPages(pathname: string): Promise<unknown> {
  const loads: Promise<AnyComponent>[] = [];
  for (const { route } of matchRoutes(routes, pathname) ?? []) {
    const type = isValidElement(route.element) ? route.element.type : null;
    if (typeof type === 'function' && 'preload' in type) loads.push((type as LazyPage).preload());
  }
  return Promise.all(loads);
}

const AccessPage = page(() => import('../pages/access/AccessPage.js'), 'AccessPage');
const ConnectionRequestsPage = page(() => import('../pages/access/ConnectionRequestsPage.js'), 'ConnectionRequestsPage');
const RedeemPage = page(() => import('../pages/access/RedeemPages.js'), 'RedeemPage');
const RedeemTimelinePage = page(() => import('../pages/access/RedeemPages.js'), 'RedeemTimelinePage');
const VaultViewerPage = page(() => import('../pages/access/VaultViewerPage.js'), 'VaultViewerPage');
const AuthPage = page(() => import('../pages/auth/AuthPage.js'), 'AuthPage', { queries: false });
const CourtDocumentsPage = page(() => import('../pages/court/CourtDocumentsPage.js'), 'CourtDocumentsPage');
const CourtJournalPage = page(() => import('../pages/court/CourtJournalPage.js'), 'CourtJournalPage');
const HowItWorksPage = page(() => import('../pages/how-it-works/HowItWorksPage.js'), 'HowItWorksPage', { queries: false });
const LandingPage = page(() => import('../pages/landing/LandingPage.js'), 'LandingPage', { queries: false });
const LettersPage = page(() => import('../pages/letters/LettersPage.js'), 'LettersPage');
const RecordPage = page(() => import('../pages/record/RecordPage.js'), 'RecordPage');
const TimelinePage = page(() => import('../pages/timeline/TimelinePage.js'), 'TimelinePage');
const EnhancedTimelinePage = page(() => import('../pages/timeline/TimelinePage.js'), 'EnhancedTimelinePage');
const VaultHomePage = page(() => import('../pages/vault/VaultHomePage.js'), 'VaultHomePage');
const WhoIAmPage = page(() => import('../pages/who-i-am/WhoIAmPage.js'), 'WhoIAmPage');
const IfImNotTherePage = page(() => import('../pages/if-im-not-there/IfImNotTherePage.js'), 'IfImNotTherePage');
const CommunityPage = page(() => import('../pages/community/CommunityPage.js'), 'CommunityPage');
const TestVaultDeliveryPage = page(() => import('../pages/if-im-not-there/TestVaultDeliveryPage.js'), 'TestVaultDeliveryPage');
const PricingPage = page(() => import('../pages/billing/PricingPage.js'), 'PricingPage');
const SubscribePage = page(() => import('../pages/billing/PricingPage.js'), 'SubscribePage');
const CheckoutPage = page(() => import('../pages/billing/CheckoutPages.js'), 'CheckoutPage');
const LocalCheckoutPage = page(() => import('../pages/billing/CheckoutPages.js'), 'LocalCheckoutPage');
const CheckoutSuccessPage = page(() => import('../pages/billing/CheckoutPages.js'), 'CheckoutSuccessPage');
const CheckoutCancelledPage = page(() => import('../pages/billing/CheckoutPages.js'), 'CheckoutCancelledPage');
const SettingsPage = page(() => import('../pages/settings/SettingsPage.js'), 'SettingsPage');
const PrivacyPage = page(() => import('../pages/privacy/PrivacyPage.js'), 'PrivacyPage', { queries: false });
const AdminDashboardPage = page(() => import('../pages/admin/AdminDashboardPage.js'), 'AdminDashboardPage');
const StillHerePage = page(() => import('../pages/if-im-not-there/StillHerePage.js'), 'StillHerePage');

/**
 * The route table. The session guard lives in RootLayout (see route-access.ts): /vault, /letters and
 * the other member pages need a session. Every screen the app links to is built; any other path falls
 * through to the not-found screen, after the guard has sent a signed-out visitor of a non-public path
 * to /auth.
 */
export const routes: RouteObject[] = [
  {
    path: '/',
    element: <RootLayout />,
    // Errors in the shell itself: a bare error page.
    errorElement: <ErrorPage />,
    children: [
      {
        // Errors in a page: the error page inside the shell.
        errorElement: <ErrorPage />,
        children: [
          { index: true, element: <LandingPage /> },
          { path: 'how-it-works', element: <HowItWorksPage /> },
          { path: 'auth', element: <AuthPage /> },
          { path: 'login', element: <AuthPage /> },
          { path: 'login-signup', element: <AuthPage /> },
          { path: 'vault', element: <VaultHomePage /> },
          { path: 'letters', element: <LettersPage /> },
          { path: 'record', element: <RecordPage variant="record" /> },
          { path: 'record-media', element: <RecordPage variant="record-media" /> },
          { path: 'timeline', element: <TimelinePage /> },
          { path: 'enhanced-timeline', element: <EnhancedTimelinePage /> },
          { path: 'court-documents', element: <CourtDocumentsPage /> },
          { path: 'court-journal', element: <CourtJournalPage /> },
          { path: 'whoiam', element: <WhoIAmPage /> },
          { path: 'if-im-not-there', element: <IfImNotTherePage /> },
          { path: 'gone', element: <IfImNotTherePage /> },
          { path: 'test-vault-delivery', element: <TestVaultDeliveryPage /> },
          // Plans and checkout: /pricing and /subscribe are public; checking out needs a session.
          { path: 'pricing', element: <PricingPage /> },
          { path: 'subscribe', element: <SubscribePage /> },
          { path: 'checkout', element: <CheckoutPage /> },
          { path: 'checkout/local', element: <LocalCheckoutPage /> },
          { path: 'checkout/success', element: <CheckoutSuccessPage /> },
          { path: 'checkout/cancel', element: <CheckoutCancelledPage /> },
          { path: 'settings', element: <SettingsPage /> },
          { path: 'privacy', element: <PrivacyPage /> },
          // The Parent Circle: one screen, three addresses (spec 02, section 2).
          { path: 'community', element: <CommunityPage /> },
          { path: 'parent-circle', element: <CommunityPage /> },
          { path: 'parent-community', element: <CommunityPage /> },
          // Public: the "I'm still here" link of an inactivity warning (the link is its own credential).
          { path: 'still-here', element: <StillHerePage /> },
          // Family access: the request form and key entry are public; /vault/view is the family's viewer.
          { path: 'access', element: <AccessPage /> },
          { path: 'request/*', element: <AccessPage /> },
          { path: 'access-key', element: <AccessPage /> },
          { path: 'access-control', element: <ConnectionRequestsPage /> },
          { path: 'vault/view', element: <VaultViewerPage /> },
          { path: 'redeem', element: <RedeemPage /> },
          { path: 'redeem/timeline', element: <RedeemTimelinePage /> },
          {
            // Admin only (non-admins go to / with "Access denied"); the services refuse them too.
            path: 'admin',
            element: (
              <RequireAdmin>
                <AdminDashboardPage />
              </RequireAdmin>
            ),
          },
          {
            path: 'admin/*',
            element: (
              <RequireAdmin>
                <NotFoundPage />
              </RequireAdmin>
            ),
          },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
  },
];
