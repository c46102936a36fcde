import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '../../ui/Button';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { DateTime } from '../../ui/DateTime';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { LoadMore } from '../../ui/PageHeader';
import { useCursorPages } from '../../ui/use-cursor-pages';
import { fetchSessionsPage, revokeSession, type UserSession, userKeys } from './users-api';

/** The browsers signed in as the user, newest first; each can be signed out at once. */
export function UserSessions({ userId }: { userId: string }) {
  const queryClient = useQueryClient();
  const sessions = useCursorPages<UserSession>(userKeys.sessions(userId), (cursor) => fetchSessionsPage(userId, cursor));
  const [revoking, setRevoking] = useState<UserSession | null>(null);
  const revoke = useMutation({
    mutationFn: (session: UserSession) => revokeSession(userId, session.id),
    onSettled: async () => {
      setRevoking(null);
      await queryClient.invalidateQueries({ queryKey: userKeys.sessions(userId) });
    },
  });
  return (
    <section aria-labelledby="sessions-heading" className="flex flex-col gap-2">
      <h2 id="sessions-heading" className="text-base font-semibold">
        Sessions
      </h2>
      <ErrorNotice error={sessions.error ?? revoke.error} />
      {!sessions.isPending && sessions.items.length === 0 && !sessions.error ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          Not signed in anywhere. Sessions appear here once they sign in to the console.
        </p>
      ) : null}
      <ul
        aria-label="Sessions"
        className="divide-y divide-zinc-200 rounded-md border border-zinc-200 empty:hidden dark:divide-zinc-800 dark:border-zinc-800"
      >
        {sessions.items.map((session) => (
          <li key={session.id} className="flex flex-wrap items-center gap-x-4 gap-y-1 px-3 py-2 text-sm">
            <div className="min-w-0 flex-1">
              <p className="truncate font-medium" title={session.userAgent ?? undefined}>
                {describeAgent(session.userAgent)}
                {session.current ? <span className="ml-2 text-xs text-blue-700 dark:text-blue-400">(this browser)</span> : null}
              </p>
              <p className="text-zinc-500 dark:text-zinc-400">
                {session.ipAddress ?? 'Unknown address'} · signed in <DateTime value={session.createdAt} /> · last seen{' '}
                <DateTime value={session.lastSeenAt} />
              </p>
            </div>
            <Button
              aria-label={`Revoke ${describeAgent(session.userAgent)} session from ${session.ipAddress ?? 'an unknown address'}`}
              onClick={() => setRevoking(session)}
            >
              Revoke
            </Button>
          </li>
        ))}
      </ul>
      <LoadMore hasMore={sessions.hasMore} loading={sessions.loadingMore} onLoadMore={sessions.loadMore} />
      <ConfirmDialog
        open={revoking !== null}
        onOpenChange={(open) => (open ? null : setRevoking(null))}
        title="Revoke this session?"
        description="That browser is signed out at its next request. The user can sign in again unless they are disabled."
        confirmLabel="Revoke session"
        pending={revoke.isPending}
        onConfirm={() => revoking && revoke.mutate(revoking)}
      />
    </section>
  );
}

const BROWSERS: [RegExp, string][] = [
  [/Edg\//, 'Edge'],
  [/Firefox\//, 'Firefox'],
  [/Chrome\//, 'Chrome'],
  [/Safari\//, 'Safari'],
];
const SYSTEMS: [RegExp, string][] = [
  [/Android/, 'Android'],
  [/iPhone|iPad/, 'iOS'],
  [/Windows/, 'Windows'],
  [/Mac OS X/, 'macOS'],
  [/Linux/, 'Linux'],
];

/** A readable name for a user agent string: the browser and the system, when they can be told (first match wins). */
function describeAgent(userAgent: string | null): string {
  if (!userAgent) {
    return 'Unknown browser';
  }
  const browser = BROWSERS.find(([pattern]) => pattern.test(userAgent))?.[1] ?? userAgent.slice(0, 40);
  const system = SYSTEMS.find(([pattern]) => pattern.test(userAgent))?.[1];
  return system ? `${browser} on ${system}` : browser;
}
