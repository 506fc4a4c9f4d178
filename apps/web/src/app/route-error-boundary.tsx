import { Component, type ReactNode } from 'react';
import { useLocation, type Location } from 'react-router-dom';
import { ErrorPage } from '../pages/errors/ErrorPage.js';

interface BoundaryState {
  failed: boolean;
  error: unknown;
  location: Location;
}

class Boundary extends Component<{ location: Location; children: ReactNode }, BoundaryState> {
  override state: BoundaryState = { failed: false, error: null, location: this.props.location };

  static getDerivedStateFromError(error: unknown): Partial<BoundaryState> {
    return { failed: true, error };
  }

  // Another address starts afresh: the user can leave a broken page by any link, as with the router's errorElement.
  static getDerivedStateFromProps(props: { location: Location }, state: BoundaryState): Partial<BoundaryState> | null {
    return props.location === state.location ? null : { failed: false, error: null, location: props.location };
  }

  override render() {
    return this.state.failed ? <ErrorPage error={this.state.error} /> : this.props.children;
  }
}

/**
 * An unhandled rendering error below it shows the error page in its place (routes.tsx puts one around
 * the shell and one around the pages, inside the shell). The router's own errorElement needs its data
 * router, which the app does without (issue 10: 17 KB less in every first load).
 */
export function RouteErrorBoundary({ children }: { children: ReactNode }) {
  const location = useLocation();
  return <Boundary location={location}>{children}</Boundary>;
}
