import { useEffect, type ReactNode } from 'react';
import { Navigate } from 'react-router-dom';
import { useAuth } from '../auth/AuthProvider.js';
import { showToast } from '../lib/toast.js';
import { decideAdminAccess } from '../auth/route-access.js';

/** Admin-only routes: anyone else goes to / with the toast "Access denied". */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const { user } = useAuth();
  const decision = decideAdminAccess(user);
  const denied = decision.kind === 'redirect';

  useEffect(() => {
    if (denied) showToast((toast) => toast.error('Access denied', { id: 'access-denied' }));
  }, [denied]);

  if (decision.kind === 'redirect') return <Navigate to={decision.to} replace />;
  return <>{children}</>;
}
