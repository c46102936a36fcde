import { Link } from '@tanstack/react-router';
import { Activity, BookOpen } from 'lucide-react';
import { useMe } from '../auth/session';

const LINK =
  'inline-flex items-center gap-1.5 rounded-md border border-zinc-300 px-3 py-1.5 text-sm hover:bg-zinc-50 dark:border-zinc-700 dark:hover:bg-zinc-800';

/** Where to see what the agent did: its runs, and (for admins, who see every run) its knowledge gaps. */
export function AgentActivityLinks({ agentId }: { agentId: string }) {
  const isAdmin = useMe().user.userType === 'ORG_ADMIN';
  return (
    <nav aria-label="Agent activity" className="flex flex-wrap gap-2">
      <Link to="/agents/$agentId/runs" params={{ agentId }} className={LINK}>
        <Activity size={14} aria-hidden /> Runs
      </Link>
      {isAdmin ? (
        <Link to="/agents/$agentId/knowledge-gaps" params={{ agentId }} className={LINK}>
          <BookOpen size={14} aria-hidden /> Knowledge gaps
        </Link>
      ) : null}
    </nav>
  );
}
