import { useLayoutEffect, type ReactNode } from 'react';
import { MemoryRouter, useLocation, type Location, type RouteObject } from 'react-router-dom';
import { AppRoutes } from '../app/routes.js';

/** Where the app is, for assertions: `router.state.location`, kept current as the app navigates. */
export interface RouterProbe {
  state: { location: Location };
}

function LocationProbe({ onLocation }: { onLocation: (location: Location) => void }) {
  const location = useLocation();
  useLayoutEffect(() => onLocation(location), [onLocation, location]);
  return null;
}

/**
 * The app's routes (or `table`) in a memory router at `path`, configured as main.tsx configures the
 * browser's (navigations render at once), and a probe of where it is.
 */
export function memoryApp(path: string, table?: RouteObject[]): { router: RouterProbe; element: ReactNode } {
  const router: RouterProbe = { state: { location: { pathname: path, search: '', hash: '', state: null, key: 'default' } } };
  const onLocation = (location: Location) => {
    router.state.location = location;
  };
  const element = (
    <MemoryRouter initialEntries={[path]} useTransitions={false}>
      <LocationProbe onLocation={onLocation} />
      <AppRoutes table={table} />
    </MemoryRouter>
  );
  return { router, element };
}
