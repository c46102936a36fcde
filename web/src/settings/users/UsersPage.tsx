import { Link } from '@tanstack/react-router';
import { UserPlus } from 'lucide-react';
import { useState } from 'react';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { LoadMore, PageHeader } from '../../ui/PageHeader';
import { useCursorPages } from '../../ui/use-cursor-pages';
import { InviteUserDialog } from './InviteUserDialog';
import { fetchUsersPage, ROLE_LABELS, type User, userKeys } from './users-api';

/** The organization's people: who they are, their role and whether they may sign in; invite more. */
export function UsersPage() {
  const [inviting, setInviting] = useState(false);
  const users = useCursorPages<User>(userKeys.list, fetchUsersPage);
  return (
    <div>
      <PageHeader
        title="Users"
        description="Everyone who works in this helpdesk. Open a user to change their role, disable them or end their sessions."
        actions={
          <Button variant="primary" onClick={() => setInviting(true)}>
            <UserPlus size={16} aria-hidden />
            Invite user
          </Button>
        }
      />
      <div className="p-4">
        <ErrorNotice error={users.error} className="mb-3" />
        {users.isPending ? <p className="text-sm text-zinc-500 dark:text-zinc-400">Loading users…</p> : null}
        {!users.isPending && users.items.length === 0 && !users.error ? (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            Nobody here yet. Use “Invite user”: they get an email with a link to set their password.
          </p>
        ) : null}
        <ul
          aria-label="Users"
          className="divide-y divide-zinc-200 rounded-md border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800"
        >
          {users.items.map((user) => (
            <UserRow key={user.id} user={user} />
          ))}
        </ul>
        <LoadMore hasMore={users.hasMore} loading={users.loadingMore} onLoadMore={users.loadMore} />
      </div>
      <InviteUserDialog open={inviting} onOpenChange={setInviting} />
    </div>
  );
}

function UserRow({ user }: { user: User }) {
  return (
    <li className="flex flex-wrap items-center gap-x-3 gap-y-1 px-3 py-2 text-sm">
      <div className="min-w-0 flex-1">
        <Link
          to="/settings/users/$userId"
          params={{ userId: user.id }}
          className="font-medium text-blue-700 hover:underline dark:text-blue-400"
        >
          {user.name}
        </Link>
        <p className="truncate text-zinc-500 dark:text-zinc-400">{user.email}</p>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <Badge tone={user.userType === 'ORG_ADMIN' ? 'violet' : 'neutral'}>{ROLE_LABELS[user.userType]}</Badge>
        <Badge tone={user.status === 'online' ? 'green' : user.status === 'away' ? 'amber' : 'neutral'}>{user.status}</Badge>
        {user.disabled ? <Badge tone="red">Disabled</Badge> : null}
      </div>
    </li>
  );
}
