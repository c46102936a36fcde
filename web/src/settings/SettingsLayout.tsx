import { Link, Outlet } from '@tanstack/react-router';
import { ShieldAlert } from 'lucide-react';
import { useMe } from '../auth/session';
import { SETTINGS_AREAS } from './settings-areas';

/**
 * The settings area: its rail on the left (a row that scrolls sideways on phones) and the page.
 * Only admins set a helpdesk up; anyone else who follows a link here is told so, and the API
 * refuses their writes anyway.
 */
export function SettingsLayout() {
  const me = useMe();
  if (me.user.userType !== 'ORG_ADMIN') {
    return <NoAccess />;
  }
  return (
    <div className="flex h-full min-h-0 flex-col md:flex-row">
      <nav
        aria-label="Settings"
        className="shrink-0 overflow-x-auto border-b border-zinc-200 md:w-52 md:overflow-y-auto md:border-r md:border-b-0 dark:border-zinc-800"
      >
        <h2 className="hidden px-4 pt-4 pb-2 text-xs font-semibold tracking-wide text-zinc-500 uppercase md:block dark:text-zinc-400">
          Settings
        </h2>
        <ul className="flex gap-1 p-2 md:flex-col md:pt-0">
          {SETTINGS_AREAS.map((area) => (
            <li key={area.to} className="shrink-0">
              <Link
                to={area.to}
                className="block rounded-md px-3 py-1.5 text-sm whitespace-nowrap text-zinc-700 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800"
                activeProps={{
                  className: 'bg-blue-50 font-medium text-blue-700 dark:bg-blue-950 dark:text-blue-300',
                  'aria-current': 'page',
                }}
              >
                {area.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <div className="min-h-0 min-w-0 flex-1 overflow-y-auto">
        <Outlet />
      </div>
    </div>
  );
}

function NoAccess() {
  return (
    <div className="mx-auto flex max-w-md flex-col items-center gap-3 p-10 text-center">
      <ShieldAlert size={28} aria-hidden className="text-amber-600" />
      <h1 className="text-lg font-semibold">You do not have access to settings</h1>
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        Only admins of your organization set up teams, routing, fields, people and channels. Ask an admin if something needs
        changing.
      </p>
      <Link to="/" className="text-sm text-blue-600 underline dark:text-blue-400">
        Back to the inbox
      </Link>
    </div>
  );
}
