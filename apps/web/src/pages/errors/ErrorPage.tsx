import { TriangleAlert } from 'lucide-react';
import { buttonClasses } from '../../components/ui/button.js';
import { describeRouteError, ERROR_PAGE_TITLE } from './route-error.js';

/** An unhandled rendering error lands here (app/route-error-boundary.tsx). */
export function ErrorPage({ error }: { error: unknown }) {
  if (error) console.error(error);
  return (
    <div className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center">
      <span aria-hidden="true" className="grid h-14 w-14 place-items-center rounded-2xl bg-destructive/15 text-destructive">
        <TriangleAlert className="h-7 w-7" />
      </span>
      <h1 className="mt-5 font-serif text-3xl font-semibold">{ERROR_PAGE_TITLE}</h1>
      <p className="mt-3 rounded-lg bg-muted px-4 py-2 font-mono text-sm break-words" data-testid="error-detail">
        {describeRouteError(error)}
      </p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <button type="button" className={buttonClasses()} onClick={() => window.location.reload()}>
          Reload Page
        </button>
        {/* A full page load, so a broken in-memory state does not follow the user home. */}
        <a href="/" className={buttonClasses({ variant: 'outline' })}>
          Go Home
        </a>
      </div>
    </div>
  );
}
