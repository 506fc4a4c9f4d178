import { Link } from 'react-router-dom';
import { Hourglass } from 'lucide-react';
import { useAuth } from '../../auth/AuthProvider.js';
import { buttonClasses } from '../../components/ui/button.js';
import { usePageTitle } from '../../lib/use-page-title.js';
import type { ComingScreen } from './coming-soon.js';

/** A screen that is linked to but not built yet: its name, what it will do, and a way back. */
export function ComingSoonPage({ screen }: { screen: ComingScreen }) {
  usePageTitle(screen.title);
  const { user } = useAuth();
  return (
    <div className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center">
      <Hourglass aria-hidden="true" className="h-10 w-10 text-primary" />
      <h1 className="mt-4 font-serif text-3xl font-semibold">{screen.title}</h1>
      <p className="mt-2 text-sm font-medium uppercase tracking-wide text-primary">Coming soon</p>
      <p className="mt-3 text-muted-foreground">{screen.promise}</p>
      <Link to={user ? '/vault' : '/'} className={buttonClasses({ size: 'lg', className: 'mt-8' })}>
        {user ? 'Back to your vault' : 'Go Home'}
      </Link>
    </div>
  );
}
