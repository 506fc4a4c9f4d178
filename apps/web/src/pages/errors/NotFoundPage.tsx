import { Link } from 'react-router-dom';
import { House } from 'lucide-react';
import { buttonClasses } from '../../components/ui/button.js';
import { usePageTitle } from '../../lib/use-page-title.js';

/** Any path without a screen (spec 02, section 2): 404, "Page not found", a link home. */
export function NotFoundPage() {
  usePageTitle('Page not found');
  return (
    <div className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center">
      <p className="font-serif text-7xl font-semibold text-primary">404</p>
      <h1 className="mt-4 font-serif text-3xl font-semibold">Page not found</h1>
      <p className="mt-3 text-muted-foreground">The page you are looking for does not exist or has moved.</p>
      <Link to="/" className={buttonClasses({ size: 'lg', className: 'mt-8' })}>
        <House aria-hidden="true" className="h-4 w-4" />
        Go Home
      </Link>
    </div>
  );
}
