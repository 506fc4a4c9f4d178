import type { RouteObject } from 'react-router-dom';
import { AuthPage } from '../pages/auth/AuthPage.js';
import { CourtDocumentsPage } from '../pages/court/CourtDocumentsPage.js';
import { CourtJournalPage } from '../pages/court/CourtJournalPage.js';
import { ComingSoonPage } from '../pages/coming-soon/ComingSoonPage.js';
import { COMING_SCREENS } from '../pages/coming-soon/coming-soon.js';
import { ErrorPage } from '../pages/errors/ErrorPage.js';
import { NotFoundPage } from '../pages/errors/NotFoundPage.js';
import { HowItWorksPage } from '../pages/how-it-works/HowItWorksPage.js';
import { LandingPage } from '../pages/landing/LandingPage.js';
import { LettersPage } from '../pages/letters/LettersPage.js';
import { RecordPage } from '../pages/record/RecordPage.js';
import { EnhancedTimelinePage, TimelinePage } from '../pages/timeline/TimelinePage.js';
import { VaultHomePage } from '../pages/vault/VaultHomePage.js';
import { RequireAdmin } from './RequireAdmin.js';
import { RootLayout } from './RootLayout.js';

/**
 * The route table. The session guard lives in RootLayout (see route-access.ts): /vault, /letters and
 * the other member pages need a session. Screens a later issue builds that the app already links to
 * (/whoiam, /pricing, /request, ... in coming-soon.ts) say what they will be; any other
 * path falls through to the not-found screen, after the guard has sent a signed-out visitor of a
 * non-public path to /auth.
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
          ...COMING_SCREENS.map((screen) => ({ path: screen.path, element: <ComingSoonPage screen={screen} /> })),
          {
            // Admin only (non-admins go to / with "Access denied"). The admin dashboard arrives with
            // its own issue; until then an admin sees the not-found screen here.
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
