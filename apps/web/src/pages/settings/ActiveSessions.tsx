import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { Monitor } from 'lucide-react';
import { errorMessage } from '../../api/client.js';
import { endOtherSessions, endSession, fetchSessions, settingsKeys, type AccountSession } from '../../api/settings.js';
import { Button } from '../../components/ui/button.js';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.js';
import { LoadFailed } from '../../components/ui/load-failed.js';
import { Spinner } from '../../components/ui/spinner.js';
import { formatDateTime } from '../../lib/dates.js';

const when = (iso: string) => formatDateTime(iso);

/**
 * Active Sessions (/settings): every browser signed in to the account (from its user agent), when it
 * signed in and was last seen, this one marked; "Sign out" ends one at once, "Sign out everywhere else"
 * all but this one (each service refuses their tokens from then on).
 */
export function ActiveSessions() {
  const queryClient = useQueryClient();
  const sessions = useQuery({ queryKey: settingsKeys.sessions, queryFn: ({ signal }) => fetchSessions(signal) });
  const refresh = () => queryClient.invalidateQueries({ queryKey: settingsKeys.sessions });
  const endOne = useMutation({
    mutationFn: (session: AccountSession) => endSession(session.id),
    onSuccess: (_ended, session) => toast.success(`Signed out: ${session.device}`),
    onError: (error) => toast.error('That session was not signed out.', { description: errorMessage(error, 'Please try again.') }),
    onSettled: refresh,
  });
  const endOthers = useMutation({
    mutationFn: endOtherSessions,
    onSuccess: ({ sessionsEnded }) => toast.success(sessionsEnded === 1 ? 'Signed out 1 other session.' : `Signed out ${sessionsEnded} other sessions.`),
    onError: (error) => toast.error('The other sessions were not signed out.', { description: errorMessage(error, 'Please try again.') }),
    onSettled: refresh,
  });
  const others = sessions.data?.sessions.filter((s) => !s.current).length ?? 0;

  return (
    <Card>
      <CardHeader>
        <CardTitle>Active Sessions</CardTitle>
        <CardDescription>Browsers signed in to your account. Sign out any you do not recognise, then change your password.</CardDescription>
      </CardHeader>
      <CardContent>
        {sessions.isPending ? (
          <Spinner label="Loading your sessions…" />
        ) : sessions.isError ? (
          <LoadFailed message="Could not load your sessions." onRetry={() => void sessions.refetch()} />
        ) : (
          <>
            <ul aria-label="Active sessions" className="flex flex-col divide-y divide-border">
              {sessions.data.sessions.map((session) => (
                <li key={session.id} className="flex items-center justify-between gap-4 py-3">
                  <div className="flex items-start gap-3">
                    <Monitor aria-hidden="true" className="mt-0.5 h-5 w-5 text-muted-foreground" />
                    <div>
                      <p className="font-medium">
                        {session.device}
                        {session.current ? <span className="ml-2 rounded-full bg-primary/15 px-2 py-0.5 text-xs font-semibold text-primary">This browser</span> : null}
                      </p>
                      <p className="text-sm text-muted-foreground">
                        Signed in {when(session.createdAt)} · Last seen {when(session.lastSeenAt)}
                      </p>
                    </div>
                  </div>
                  {session.current ? null : (
                    <Button
                      variant="outline"
                      size="sm"
                      disabled={endOne.isPending}
                      aria-label={`Sign out ${session.device}, signed in ${when(session.createdAt)}`}
                      onClick={() => endOne.mutate(session)}
                    >
                      Sign out
                    </Button>
                  )}
                </li>
              ))}
            </ul>
            <Button className="mt-4" variant="outline" disabled={others === 0 || endOthers.isPending} onClick={() => endOthers.mutate()}>
              Sign out everywhere else
            </Button>
          </>
        )}
      </CardContent>
    </Card>
  );
}
