import { isValidElement } from 'react';
import { matchRoutes, Outlet, useRoutes, type RouteObject } from 'react-router-dom';
import { NotFoundPage } from '../pages/errors/NotFoundPage.js';
import { page, type LazyPage } from './lazy-page.js';
import { RequireAdmin } from './RequireAdmin.js';
import { RouteErrorBoundary } from './route-error-boundary.js';
import { placeholderFor } from './route-placeholders.js';
import { RootLayout } from './RootLayout.js';

/**
 * Loads the code of the pages `pathname` shows (see page()). Resolves once what the app's first render
 * there shows has arrived: a page that needs the session first shows its placeholder, if it has one
 * (route-placeholders.ts), so the page's own code then keeps loading after that (the prerendered vault
 * home hydrates with the placeholder, and the page follows the session).
 */
export function preloadPages(pathname: string): Promise<unknown> {
  const loads: Promise<unknown>[] = [];
  for (const { route } of matchRoutes(routes, pathname) ?? []) {
    const type = isValidElement(route.element) ? route.element.type : null;
    if (typeof type === 'function' && 'preload' in type) loads.push((type as LazyPage).preload());
  }
  const pages = Promise.all(loads);
  const placeholder = placeholderFor(pathname);
  if (!placeholder) return pages;
  // A page that fails to load shows its route's error page when it renders, not here.
  pages.catch(() => undefined);
  return placeholder.preload();
}

const AccessPage = page(() => import('../pages/access/AccessPage.js'), 'AccessPage');
const ConnectionRequestsPage = page(() => import('../pages/access/ConnectionRequestsPage.js'), 'ConnectionRequestsPage');
const RedeemPage = page(() => import('../pages/access/RedeemPages.js'), 'RedeemPage');
const RedeemTimelinePage = page(() => import('../pages/access/RedeemPages.js'), 'RedeemTimelinePage');
const VaultViewerPage = page(() => import('../pages/access/VaultViewerPage.js'), 'VaultViewerPage');
const AuthPage = page(() => import('../pages/auth/AuthPage.js'), 'AuthPage', { queries: false });
const ForgotPasswordPage = page(() => import('../pages/auth/PasswordRecoveryPages.js'), 'ForgotPasswordPage', { queries: false });
const ResetPasswordPage = page(() => import('../pages/auth/PasswordRecoveryPages.js'), 'ResetPasswordPage', { queries: false });
const ConfirmEmailPage = page(() => import('../pages/auth/EmailChangePages.js'), 'ConfirmEmailPage', { queries: false });
const UndoEmailChangePage = page(() => import('../pages/auth/EmailChangePages.js'), 'UndoEmailChangePage', { queries: false });
const KeepAccountPage = page(() => import('../pages/auth/KeepAccountPage.js'), 'KeepAccountPage', { queries: false });
const NotMePage = page(() => import('../pages/auth/EmailChangePages.js'), 'NotMePage', { queries: false });
const VerifyEmailPage = page(() => import('../pages/auth/VerifyEmailPage.js'), 'VerifyEmailPage', { queries: false });
const CourtDocumentsPage = page(() => import('../pages/court/CourtDocumentsPage.js'), 'CourtDocumentsPage');
const CourtJournalPage = page(() => import('../pages/court/CourtJournalPage.js'), 'CourtJournalPage');
const HowItWorksPage = page(() => import('../pages/how-it-works/HowItWorksPage.js'), 'HowItWorksPage', { queries: false });
const LandingPage = page(() => import('../pages/landing/LandingPage.js'), 'LandingPage', { queries: false });
const LettersPage = page(() => import('../pages/letters/LettersPage.js'), 'LettersPage');
const RecordPage = page(() => import('../pages/record/RecordPage.js'), 'RecordPage');
const TimelinePage = page(() => import('../pages/timeline/TimelinePage.js'), 'TimelinePage');
const EnhancedTimelinePage = page(() => import('../pages/timeline/TimelinePage.js'), 'EnhancedTimelinePage');
const VaultHomePage = page(() => import('../pages/vault/VaultHomePage.js'), 'VaultHomePage', { queries: false });
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
const TrusteePage = page(() => import('../pages/trustee/TrusteePage.js'), 'TrusteePage');

/**
 * The route table. The session guard lives in RootLayout (see route-access.ts): /vault, /letters and
 * the other member pages need a session. Every screen the app links to is built; any other path falls
 * through to the not-found screen, after the guard has sent a signed-out visitor of a non-public path
 * to /auth.
 */
export const routes: RouteObject[] = [
  {
    path: '/',
    // Errors in the shell itself: a bare error page.
    element: (
      <RouteErrorBoundary>
        <RootLayout />
      </RouteErrorBoundary>
    ),
    children: [
      {
        // Errors in a page: the error page inside the shell.
        element: (
          <RouteErrorBoundary>
            <Outlet />
          </RouteErrorBoundary>
        ),
        children: [
          { index: true, element: <LandingPage /> },
          { path: 'how-it-works', element: <HowItWorksPage /> },
          { path: 'auth', element: <AuthPage /> },
          { path: 'login', element: <AuthPage /> },
          { path: 'login-signup', element: <AuthPage /> },
          // Public: "Forgot password?" and the reset e-mail's link (its token is its own credential).
          { path: 'forgot-password', element: <ForgotPasswordPage /> },
          { path: 'reset-password', element: <ResetPasswordPage /> },
          // Public too: an e-mail change's links (the new address confirms, the old one undoes).
          { path: 'confirm-email', element: <ConfirmEmailPage /> },
          { path: 'undo-email-change', element: <UndoEmailChangePage /> },
          // And the "this wasn't me" link of the e-mail about a sign-in from a new browser.
          { path: 'not-me', element: <NotMePage /> },
          // And the verification link e-mailed to a new account's address (signed in or not).
          { path: 'verify-email', element: <VerifyEmailPage /> },
          // And the "keep my account" link e-mailed when the account's deletion was asked for.
          { path: 'keep-account', element: <KeepAccountPage /> },
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
          // Public: a trustee's page, opened from their e-mailed link (the link is their credential).
          { path: 'trustee', element: <TrusteePage /> },
          // Family access: the request form and key entry are public; /vault/view is the family's viewer.
          { path: 'access', element: <AccessPage /> },
          { path: 'request/*', element: <AccessPage /> },
          // The request link's older address (route-access.ts keeps both public).
          { path: 'access-request/*', element: <AccessPage /> },
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

/**
 * The route table rendered by the declarative router (main.tsx's BrowserRouter, prerender.tsx's
 * StaticRouter): the data router's createBrowserRouter would add 17 KB gzipped to every first load
 * for loaders and actions the app does not use (issue 10). `table`: another table, for specs.
 */
export function AppRoutes({ table = routes }: { table?: RouteObject[] }) {
  return useRoutes(table);
}
