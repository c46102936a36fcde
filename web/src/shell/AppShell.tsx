import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, Outlet, useMatchRoute, useNavigate } from '@tanstack/react-router';
import { Bot, ChartNoAxesColumn, LibraryBig, LogOut, Menu, Radio, Search, Settings } from 'lucide-react';
import { useEffect, useState } from 'react';
import { api, unwrap } from '../api/client';
import { sessionQuery } from '../auth/session';
import { InboxRail } from '../inbox/InboxRail';
import { useStreamState } from '../live/events';
import { CommandBar } from './CommandBar';
import { isSearchShortcut } from './search-shortcut';

/** The signed-in frame: top bar, the views rail (a drawer on phones) and the page. */
export function AppShell() {
  // Read softly rather than with useMe: signing out clears the session while this frame is still
  // drawn for the last time on the way to sign-in, and a route change re-renders it then.
  const me = useQuery(sessionQuery).data;
  const [railOpen, setRailOpen] = useState(false);
  const [searchOpen, setSearchOpen] = useState(false);
  // The settings area has a rail of its own in place of the views; the reports, knowledge and AI agents pages need the width.
  const matchRoute = useMatchRoute();
  const withoutViews = Boolean(
    matchRoute({ to: '/settings', fuzzy: true }) ||
      matchRoute({ to: '/reports' }) ||
      matchRoute({ to: '/knowledge', fuzzy: true }) ||
      matchRoute({ to: '/agents', fuzzy: true }),
  );
  // `/` or Ctrl-K opens the command bar from every page of the console.
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (isSearchShortcut(event)) {
        event.preventDefault();
        setSearchOpen(true);
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);
  if (!me) {
    return null;
  }
  return (
    <div className="flex h-full flex-col">
      <header className="flex h-12 shrink-0 items-center gap-2 border-b border-zinc-200 px-3 sm:gap-3 dark:border-zinc-800">
        <button
          type="button"
          className={`rounded p-1 hover:bg-zinc-100 md:hidden dark:hover:bg-zinc-800 ${withoutViews ? 'hidden' : ''}`}
          aria-label="Show views"
          aria-expanded={railOpen}
          onClick={() => setRailOpen((open) => !open)}
        >
          <Menu size={18} aria-hidden />
        </button>
        <Link to="/" className="font-semibold text-blue-600 dark:text-blue-400">
          Switchboard
        </Link>
        <span className="hidden truncate text-sm text-zinc-500 sm:inline dark:text-zinc-400">{me.organization.name}</span>
        <button
          type="button"
          className="ml-auto flex min-w-0 items-center gap-2 rounded-md border border-zinc-200 px-2 py-1 text-sm text-zinc-500 hover:bg-zinc-50 sm:w-64 dark:border-zinc-800 dark:text-zinc-400 dark:hover:bg-zinc-900"
          aria-label="Open ticket search"
          aria-keyshortcuts="/ Control+K"
          onClick={() => setSearchOpen(true)}
        >
          <Search size={14} aria-hidden />
          <span className="hidden sm:inline">Search…</span>
          <kbd className="ml-auto hidden rounded border border-zinc-200 px-1 text-xs sm:inline dark:border-zinc-700">/</kbd>
        </button>
        {/* Tighter on a phone: the top bar holds every link at 390 px without scrolling sideways. */}
        <div className="flex items-center gap-1 sm:gap-3">
          <ReportsLink />
          <KnowledgeLink />
          <AgentsLink />
          {me.user.userType === 'ORG_ADMIN' ? <SettingsLink /> : null}
          <LiveIndicator />
          <UserMenu name={me.user.name} email={me.user.email} />
        </div>
      </header>
      <div className="flex min-h-0 flex-1">
        {withoutViews ? null : (
          <nav
            aria-label="Views"
            className={`${railOpen ? 'block' : 'hidden'} absolute inset-y-12 left-0 z-20 w-64 overflow-y-auto border-r border-zinc-200 bg-white md:static md:block md:w-56 md:shrink-0 dark:border-zinc-800 dark:bg-zinc-950`}
            onClick={() => setRailOpen(false)}
            onKeyDown={undefined}
          >
            <InboxRail />
          </nav>
        )}
        <main className="min-w-0 flex-1 overflow-hidden">
          <Outlet />
        </main>
      </div>
      <CommandBar open={searchOpen} onOpenChange={setSearchOpen} />
    </div>
  );
}

/** Everyone's way to the reports (every user may read them, as they read every team's tickets). */
function ReportsLink() {
  return (
    <Link
      to="/reports"
      className="flex items-center gap-1 rounded-md px-2 py-1 text-sm text-zinc-600 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800"
      activeProps={{ className: 'bg-zinc-100 dark:bg-zinc-800', 'aria-current': 'page' }}
    >
      <ChartNoAxesColumn size={16} aria-hidden />
      <span className="sr-only sm:not-sr-only">Reports</span>
    </Link>
  );
}

/** The AI agents area: everyone may read the agents and providers; changing them is the admins'. */
function AgentsLink() {
  return (
    <Link
      to="/agents"
      className="flex items-center gap-1 rounded-md px-2 py-1 text-sm text-zinc-600 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800"
      activeProps={{ className: 'bg-zinc-100 dark:bg-zinc-800', 'aria-current': 'page' }}
    >
      <Bot size={16} aria-hidden />
      <span className="sr-only sm:not-sr-only">AI agents</span>
    </Link>
  );
}

/** Everyone's way to the help centers: admins arrange them, everyone writes their articles. */
function KnowledgeLink() {
  return (
    <Link
      to="/knowledge"
      className="flex items-center gap-1 rounded-md px-2 py-1 text-sm text-zinc-600 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800"
      activeProps={{ className: 'bg-zinc-100 dark:bg-zinc-800', 'aria-current': 'page' }}
    >
      <LibraryBig size={16} aria-hidden />
      <span className="sr-only sm:not-sr-only">Knowledge</span>
    </Link>
  );
}

/** Admins' way into setting the helpdesk up; other people never see it. */
function SettingsLink() {
  return (
    <Link
      to="/settings"
      className="flex items-center gap-1 rounded-md px-2 py-1 text-sm text-zinc-600 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800"
      activeProps={{ className: 'bg-zinc-100 dark:bg-zinc-800', 'aria-current': 'page' }}
    >
      <Settings size={16} aria-hidden />
      <span className="sr-only sm:not-sr-only">Settings</span>
    </Link>
  );
}

function LiveIndicator() {
  const state = useStreamState();
  const label = state === 'live' ? 'Live updates on' : state === 'connecting' ? 'Connecting to live updates' : 'Live updates off';
  const color = state === 'live' ? 'text-emerald-600' : state === 'connecting' ? 'text-amber-500' : 'text-zinc-400';
  return (
    <span className={`flex items-center gap-1 text-xs ${color}`} title={label}>
      <Radio size={14} aria-hidden />
      <span className="sr-only">{label}</span>
    </span>
  );
}

function UserMenu({ name, email }: { name: string; email: string }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const signOut = useMutation({
    mutationFn: async () => unwrap(api.POST('/v1/auth/logout')),
    onSettled: async () => {
      queryClient.clear();
      await navigate({ to: '/sign-in' });
    },
  });
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger
        className="flex h-8 w-8 items-center justify-center rounded-full bg-blue-600 text-sm font-semibold text-white"
        aria-label={`Account menu of ${name}`}
      >
        {name.slice(0, 1).toUpperCase()}
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={6}
          className="z-50 min-w-52 rounded-md border border-zinc-200 bg-white p-1 text-sm shadow-lg dark:border-zinc-800 dark:bg-zinc-900"
        >
          <div className="px-2 py-1.5">
            <div className="font-medium">{name}</div>
            <div className="text-xs text-zinc-500 dark:text-zinc-400">{email}</div>
          </div>
          <DropdownMenu.Separator className="my-1 h-px bg-zinc-200 dark:bg-zinc-800" />
          <DropdownMenu.Item
            className="flex cursor-pointer items-center gap-2 rounded px-2 py-1.5 outline-none data-[highlighted]:bg-zinc-100 dark:data-[highlighted]:bg-zinc-800"
            onSelect={() => signOut.mutate()}
          >
            <LogOut size={14} aria-hidden /> Sign out
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
