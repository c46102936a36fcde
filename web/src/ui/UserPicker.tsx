import { api, unwrap } from '../api/client';
import type { OrganizationUser } from '../api/types';
import { useCursorPages } from './use-cursor-pages';

/**
 * Chooses a user of the organization, a page of them at a time ("More users…" loads the next),
 * so an organization of 10,000 users costs one page until more are asked for.
 */
export function UserPicker({
  label,
  value,
  onChange,
  selfId,
}: {
  label: string;
  value: string;
  onChange: (userId: string) => void;
  /** The signed-in user, listed first as "Me". */
  selfId: string;
}) {
  const users = useCursorPages<OrganizationUser>(['users', 'list', 'picker'], (cursor) =>
    unwrap(api.GET('/v1/users/list', { params: { query: { limit: 100, ...(cursor ? { cursor } : {}) } } })),
  );
  const others = users.items.filter((user) => user.id !== selfId);
  return (
    <label className="flex flex-wrap items-center gap-2 text-sm">
      <span className="font-medium">{label}</span>
      <select
        className="max-w-full rounded-md border border-zinc-300 bg-white px-2 py-1.5 text-sm dark:border-zinc-700 dark:bg-zinc-900"
        value={value}
        onChange={(event) => {
          if (event.target.value === MORE) {
            void users.loadMore();
            return;
          }
          onChange(event.target.value);
        }}
      >
        <option value={selfId}>Me</option>
        {others.map((user) => (
          <option key={user.id} value={user.id}>
            {user.name} ({user.email})
          </option>
        ))}
        {users.hasMore ? <option value={MORE}>{users.loadingMore ? 'Loading…' : 'More users…'}</option> : null}
      </select>
    </label>
  );
}

const MORE = '__more__';
