import type { OrganizationUser } from '../api/types';
import { Avatar } from '../ui/Avatar';

/** The teammates matching the `@…` being typed; the textbox keeps focus and drives it with the arrow keys. */
export function MentionList({
  id,
  users,
  activeIndex,
  onPick,
}: {
  id: string;
  users: readonly OrganizationUser[];
  activeIndex: number;
  onPick: (user: OrganizationUser) => void;
}) {
  return (
    <div
      id={id}
      role="listbox"
      aria-label="Mention a teammate"
      className="absolute bottom-full left-2 z-30 mb-1 max-h-56 w-72 overflow-y-auto rounded-md border border-zinc-200 bg-white p-1 text-sm shadow-lg dark:border-zinc-700 dark:bg-zinc-900"
    >
      {users.map((user, index) => (
        <div
          key={user.id}
          tabIndex={-1}
          id={`${id}-${user.id}`}
          role="option"
          aria-selected={index === activeIndex}
          className={`flex cursor-pointer items-center gap-2 rounded px-2 py-1.5 ${
            index === activeIndex ? 'bg-blue-50 dark:bg-blue-950' : 'hover:bg-zinc-100 dark:hover:bg-zinc-800'
          }`}
          // mousedown, not click: the textbox must not lose focus (and the caret) first.
          onMouseDown={(event) => {
            event.preventDefault();
            onPick(user);
          }}
        >
          <Avatar name={user.name} url={user.avatarUrl} size={24} />
          <span className="min-w-0">
            <span className="block truncate font-medium">{user.name}</span>
            <span className="block truncate text-xs text-zinc-500 dark:text-zinc-400">{user.email}</span>
          </span>
        </div>
      ))}
    </div>
  );
}
