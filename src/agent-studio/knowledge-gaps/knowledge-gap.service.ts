import type { Static } from '@sinclair/typebox';
import type { AppDeps } from '../../deps.js';
import { encodeCursor } from '../../lib/cursors.js';
import type { Principal } from '../../lib/principal.js';
import { presentTicketsById } from '../../platform/tickets/ticket.lookup.js';
import { DEFAULT_LIST_LIMIT, readListCursor } from '../agent-studio.pagination.js';
import { requireManageableAgent } from '../agents/agent.lookup.js';
import { listTicketHandoffs } from '../runtime/agent-run.lookup.js';
import { customerQuestionOf, NO_ARTICLE_REASONS } from '../ticket-agents/ticket-question.js';
import { groupByWording, representativeQuestion } from './knowledge-gap.grouping.js';
import { DEFAULT_GAP_DAYS, type KnowledgeGapSchema, type ListKnowledgeGapsQuerySchema } from './knowledge-gap.schemas.js';

type KnowledgeGap = Static<typeof KnowledgeGapSchema>;

/** The newest hand-offs grouped at most: a range's questions beyond them are left out of the counts. */
export const MAX_GAP_QUESTIONS = 2000;
const DAY_MS = 86_400_000;

/** A group's place in the list: most asked first, then most recently asked, then its newest run. */
type GroupKey = [count: number, newestAt: string, newestRunId: string];

const keyOf = (gap: KnowledgeGap): GroupKey => [gap.count, gap.newest.handed_off_at, gap.newest.run_id];

/** Whether `key` comes after `cursor` in the list's order. */
function isAfter(key: GroupKey, cursor: GroupKey): boolean {
  if (key[0] !== cursor[0]) {
    return key[0] < cursor[0];
  }
  if (key[1] !== cursor[1]) {
    return key[1] < cursor[1];
  }
  return key[2] < cursor[2];
}

function compareGroups(a: KnowledgeGap, b: KnowledgeGap): number {
  return isAfter(keyOf(a), keyOf(b)) ? 1 : isAfter(keyOf(b), keyOf(a)) ? -1 : 0;
}

/**
 * The customer questions the agent, working on tickets, handed to a person because no published
 * article answered them, grouped by their wording (`groupByWording`), most asked first: for an
 * admin of the agent's organization, who sees every run on tickets. Read from the stored runs of
 * the last `days` days (the newest `MAX_GAP_QUESTIONS` of them); a page after `cursor`.
 */
export async function listKnowledgeGaps(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  principal: Principal,
  agentId: string,
  query: Static<typeof ListKnowledgeGapsQuerySchema>,
) {
  const agent = await requireManageableAgent(deps.db, principal, agentId);
  const limit = query.limit ?? DEFAULT_LIST_LIMIT;
  const after = readListCursor(query, ['integer', 'text', 'text']) as GroupKey | undefined;
  const since = new Date(deps.clock.now().getTime() - (query.days ?? DEFAULT_GAP_DAYS) * DAY_MS).toISOString();
  const runs = await listTicketHandoffs(deps.db, principal.organizationId, agent.id, {
    reasons: Object.values(NO_ARTICLE_REASONS),
    since,
    limit: MAX_GAP_QUESTIONS,
  });
  const asked = runs.map((run) => ({ ...run, question: customerQuestionOf(run.input) }));
  const gaps = groupByWording(asked, (run) => run.question)
    .map(({ terms, members }) => {
      const newest = members[0] as (typeof members)[number];
      return {
        question: representativeQuestion(members.map((member) => member.question)),
        count: members.length,
        terms,
        newest: {
          run_id: newest.id,
          handed_off_at: new Date(newest.created_at).toISOString(),
          ticket: { id: newest.ticket_id ?? '', identifier: null, title: null },
        },
      } satisfies KnowledgeGap;
    })
    .sort(compareGroups)
    .filter((gap) => after === undefined || isAfter(keyOf(gap), after));
  const page: KnowledgeGap[] = gaps.slice(0, limit);
  await addTickets(deps, principal.organizationId, page);
  const last = page.at(-1);
  return { items: page, nextCursor: gaps.length > limit && last ? encodeCursor(keyOf(last)) : null };
}

/** Each gap's newest ticket, as it is now; a ticket deleted since keeps only its id. */
async function addTickets(deps: Pick<AppDeps, 'db'>, organizationId: string, gaps: KnowledgeGap[]): Promise<void> {
  const tickets = await presentTicketsById(
    deps.db,
    organizationId,
    gaps.map((gap) => gap.newest.ticket.id),
  );
  const byId = new Map(tickets.map((ticket) => [ticket.id, ticket]));
  for (const gap of gaps) {
    const ticket = byId.get(gap.newest.ticket.id);
    if (ticket) {
      gap.newest.ticket.identifier = ticket.ticketIdentifier;
      gap.newest.ticket.title = ticket.title;
    }
  }
}
