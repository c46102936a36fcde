import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { ArrowLeft } from 'lucide-react';
import { useMe } from '../../auth/session';
import { Badge } from '../../ui/Badge';
import { DateTime } from '../../ui/DateTime';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { PageHeader } from '../../ui/PageHeader';
import { UserAccess } from './UserAccess';
import { UserRoleForm } from './UserRoleForm';
import { UserSessions } from './UserSessions';
import { fetchUser, ROLE_LABELS, userKeys } from './users-api';

/** One user: their role, whether they may sign in, and the browsers signed in as them. */
export function UserPage() {
  const { userId } = useParams({ from: '/signed-in/settings/users/$userId' });
  const me = useMe();
  const user = useQuery({ queryKey: userKeys.one(userId), queryFn: () => fetchUser(userId) });
  return (
    <div>
      <div className="px-4 pt-3">
        <Link
          to="/settings/users"
          className="inline-flex items-center gap-1 text-sm text-blue-700 hover:underline dark:text-blue-400"
        >
          <ArrowLeft size={14} aria-hidden />
          All users
        </Link>
      </div>
      <PageHeader title={user.data?.name ?? 'User'} description={user.data?.email} />
      <div className="flex max-w-3xl flex-col gap-6 p-4">
        <ErrorNotice error={user.error} />
        {user.data ? (
          <>
            <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
              <dt className="text-zinc-500 dark:text-zinc-400">Role</dt>
              <dd>{ROLE_LABELS[user.data.userType]}</dd>
              <dt className="text-zinc-500 dark:text-zinc-400">Status</dt>
              <dd className="flex gap-2">
                {user.data.status}
                {user.data.disabled ? <Badge tone="red">Disabled</Badge> : null}
              </dd>
              <dt className="text-zinc-500 dark:text-zinc-400">Added</dt>
              <dd>
                <DateTime value={user.data.createdAt} />
              </dd>
            </dl>
            <UserRoleForm key={`${user.data.id}-${user.data.userType}`} user={user.data} />
            <UserAccess user={user.data} isSelf={user.data.id === me.user.id} />
            <UserSessions userId={user.data.id} />
          </>
        ) : null}
      </div>
    </div>
  );
}
