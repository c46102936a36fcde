import { ChevronDown, ChevronRight } from 'lucide-react';
import { useId, useState } from 'react';
import { api, unwrap } from '../api/client';
import type { DataOf } from '../api/types';
import { ErrorNotice } from '../ui/ErrorNotice';
import { LoadMore } from '../ui/PageHeader';
import { useCursorPages } from '../ui/use-cursor-pages';

type RoutingDecision = DataOf<'/v1/tickets/{id}/routing-history', 'get'>[number];

const TRIGGERS: Record<RoutingDecision['trigger'], string> = {
  create: 'On creation',
  reroute: 'Routed again',
  member_available: 'An agent became available',
  ticket_closed: 'An agent freed capacity',
  worker: 'Waiting ticket assigned',
};

const OUTCOMES: Record<RoutingDecision['outcome'], string> = {
  assigned: 'assigned by round robin',
  explicit_agent: 'assigned as requested',
  manual: 'left for the team to assign by hand',
  team_closed: 'waiting: the team was closed',
  no_eligible_agent: 'waiting: nobody could take it',
};

/** The ticket's routing decisions, oldest first, in a section of the side panel that opens on demand. */
export function RoutingHistory({ ticketId }: { ticketId: string }) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  return (
    <section aria-label="Routing" className="border-t border-zinc-200 p-4 text-sm dark:border-zinc-800">
      <h2>
        <button
          type="button"
          aria-expanded={open}
          aria-controls={panelId}
          className="flex w-full items-center gap-1 text-xs font-semibold tracking-wide text-zinc-500 uppercase hover:text-zinc-800 dark:text-zinc-400 dark:hover:text-zinc-200"
          onClick={() => setOpen(!open)}
        >
          {open ? <ChevronDown size={14} aria-hidden /> : <ChevronRight size={14} aria-hidden />}
          Routing
        </button>
      </h2>
      {open ? (
        <div id={panelId} className="mt-2">
          <Decisions ticketId={ticketId} />
        </div>
      ) : null}
    </section>
  );
}

function Decisions({ ticketId }: { ticketId: string }) {
  const history = useCursorPages(['tickets', ticketId, 'routing-history'], (cursor) =>
    unwrap(
      api.GET('/v1/tickets/{id}/routing-history', {
        params: { path: { id: ticketId }, query: { limit: 50, ...(cursor ? { cursor } : {}) } },
      }),
    ),
  );
  return (
    <div className="flex flex-col gap-2">
      <ErrorNotice error={history.error} />
      {history.isPending ? <p className="text-zinc-500">Loading…</p> : null}
      {!history.isPending && history.items.length === 0 ? (
        <p className="text-zinc-500 dark:text-zinc-400">Not routed: the ticket was created without routing.</p>
      ) : null}
      <ol className="flex flex-col gap-2">
        {history.items.map((decision) => (
          <li key={decision.id} className="flex flex-col gap-0.5 rounded-md bg-zinc-50 p-2 dark:bg-zinc-900">
            <p className="font-medium">{TRIGGERS[decision.trigger]}</p>
            <p className="text-xs text-zinc-500 dark:text-zinc-400">
              <time dateTime={decision.decidedAt}>{new Date(decision.decidedAt).toLocaleString()}</time>
            </p>
            <p>
              {decision.matchedRule ? `Rule “${decision.matchedRule.name}” sent it to ` : 'No rule matched; kept in '}
              <span className="font-medium">{decision.teamName}</span>.
            </p>
            <p>
              {decision.agentName ? `${decision.agentName}, ` : null}
              {OUTCOMES[decision.outcome]}.
            </p>
            {decision.hops.map((hop) => (
              <p key={`${hop.fromTeamId}-${hop.ruleId}`} className="text-xs text-zinc-500 dark:text-zinc-400">
                “{hop.ruleName}”: {hop.note}
              </p>
            ))}
          </li>
        ))}
      </ol>
      <LoadMore hasMore={history.hasMore} loading={history.loadingMore} onLoadMore={() => void history.loadMore()} />
    </div>
  );
}
