import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { LibraryBig, Plus } from 'lucide-react';
import { useState } from 'react';
import { sessionQuery } from '../auth/session';
import { Button } from '../ui/Button';
import { ErrorNotice } from '../ui/ErrorNotice';
import { PageHeader } from '../ui/PageHeader';
import { type HelpCenter, helpCentersQuery } from './knowledge-api';
import { NewHelpCenterDialog } from './NewHelpCenterDialog';

/** The Knowledge area's first page: the organization's help centers, and a new one (admins). */
export function KnowledgePage() {
  const helpCenters = useQuery(helpCentersQuery);
  const isAdmin = useQuery(sessionQuery).data?.user.userType === 'ORG_ADMIN';
  const [creating, setCreating] = useState(false);
  return (
    <div className="h-full overflow-y-auto">
      <PageHeader
        title="Knowledge"
        description="Your help centers: their collections, articles and look, as customers see them on the public site."
        actions={
          isAdmin ? (
            <Button variant="primary" onClick={() => setCreating(true)}>
              <Plus size={16} aria-hidden />
              New help center
            </Button>
          ) : null
        }
      />
      <div className="mx-auto flex max-w-3xl flex-col gap-3 p-4">
        <ErrorNotice error={helpCenters.error} />
        {helpCenters.isPending ? <p className="text-sm text-zinc-500 dark:text-zinc-400">Loading help centers…</p> : null}
        {helpCenters.data?.length === 0 ? <NoHelpCenters isAdmin={isAdmin} /> : null}
        {helpCenters.data && helpCenters.data.length > 0 ? (
          <ul
            aria-label="Help centers"
            className="divide-y divide-zinc-200 rounded-md border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800"
          >
            {helpCenters.data.map((helpCenter) => (
              <HelpCenterRow key={helpCenter._id} helpCenter={helpCenter} />
            ))}
          </ul>
        ) : null}
      </div>
      <NewHelpCenterDialog open={creating} onOpenChange={setCreating} />
    </div>
  );
}

function HelpCenterRow({ helpCenter }: { helpCenter: HelpCenter }) {
  return (
    <li className="flex flex-wrap items-center gap-x-3 gap-y-1 px-3 py-2 text-sm">
      <span aria-hidden className="h-3 w-3 shrink-0 rounded-full" style={{ backgroundColor: helpCenter.theme.primaryColor }} />
      <Link
        to="/knowledge/$helpCenterId"
        params={{ helpCenterId: helpCenter._id }}
        className="min-w-0 flex-1 truncate font-medium text-blue-700 hover:underline dark:text-blue-400"
      >
        {helpCenter.name}
      </Link>
      <span className="font-mono text-xs text-zinc-500 dark:text-zinc-400">/hc/{helpCenter.slug}/</span>
      {helpCenter.isProtected ? <span className="text-xs text-zinc-600 dark:text-zinc-300">Sign-in required</span> : null}
    </li>
  );
}

function NoHelpCenters({ isAdmin }: { isAdmin: boolean }) {
  return (
    <div className="mx-auto flex max-w-md flex-col items-center gap-2 py-10 text-center">
      <LibraryBig size={28} aria-hidden className="text-zinc-400" />
      <h2 className="text-base font-semibold">No help centers yet</h2>
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        {isAdmin
          ? 'Start one with “New help center”: give it a name, then add collections to arrange its articles.'
          : 'An admin of your organization starts a help center; you can then write its articles here.'}
      </p>
    </div>
  );
}
