import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { readBoolean } from '../../db/dialect.js';
import { enqueueTicketEmail, type TicketEmailDeps } from '../../delivery/outbound/outbound-email.service.js';
import { findMentionCandidates, resolveMentions } from '../../shared/mentions.js';
import { excerptOf, type NotificationKind, type NotificationReason, renderTicketEmail } from './ticket-notification.email.js';
import {
  findMentionableUsers,
  findNotifiedTicket,
  findRecipients,
  type NotifiedTicketRow,
  type RecipientRow,
} from './ticket-notification.repository.js';

/**
 * Ticket emails to the people a change concerns, queued in the outbox in the change's own
 * transaction: they exist exactly when the change commits. The assignee gets them, or the members
 * of the ticket's team while nobody is assigned; a mention reaches the person mentioned whoever is
 * assigned. Nobody is emailed about their own change, nor about a private ticket they cannot see,
 * nor about a kind they turned off. One change sends each person at most one email (its outbox
 * dedupe key is the change's key and the person's id), naming every reason it concerns them.
 */

type Db = Kysely<DB> | Transaction<DB>;

type Deps = TicketEmailDeps;

export type TicketEvent =
  /** The ticket's assignee was set; with `teamWhenUnassigned`, a ticket left unassigned tells its team. */
  | { type: 'assigned'; teamWhenUnassigned?: boolean }
  | { type: 'customerReply'; text: string; reopened: boolean }
  | { type: 'mentioned'; text: string; userIds: string[] }
  /** An SLA target neared its due time or passed it: the assignee, or the team while nobody is assigned. */
  | { type: 'sla'; alert: 'warning' | 'breached'; metric: string; policyName: string; dueAt: string };

export interface TicketChange {
  organizationId: string;
  ticketId: string;
  /**
   * The user who made the change, never emailed about it; null when nobody did (routing's
   * worker, a customer writing in). `name` is how the email names who did it: by default the
   * user's name, or "Routing".
   */
  actor: { userId: string | null; name?: string };
  /** Names the change, unique across the installation (`comment:<id>`, `assignment:<ulid>`). */
  changeKey: string;
  /** The comment that made the change, if one did: its emails are recorded as caused by it. */
  commentId?: string;
  events: TicketEvent[];
  /** Tell nobody when the ticket is in a closed status (a ticket created closed: an import of history). */
  skipWhenClosed?: boolean;
}

const ROUTING = 'Routing';

function prefers(row: RecipientRow, reason: Pick<NotificationReason, 'kind' | 'viaTeam'>): boolean {
  const column: Record<NotificationKind, RecipientRow['assigned']> = {
    assigned: row.assigned,
    customerReply: row.customer_reply,
    mentioned: row.mentioned,
    slaWarning: row.sla_alerts,
    slaBreached: row.sla_alerts,
  };
  // No row of preferences: every kind is on.
  const on = (value: RecipientRow['assigned']) => value === null || readBoolean(value);
  return on(column[reason.kind]) && (!reason.viaTeam || on(row.team_unassigned));
}

function canSee(ticket: NotifiedTicketRow, row: RecipientRow): boolean {
  return (
    !readBoolean(ticket.is_private) ||
    row.user_type === 'ORG_ADMIN' ||
    readBoolean(row.is_member) ||
    ticket.assigned_agent_id === row.id
  );
}

interface Plan {
  /** Reasons of named people: the assignee, the mentioned. */
  personal: Map<string, NotificationReason[]>;
  /** Reasons every member of the ticket's team gets, when nobody is assigned. */
  team: NotificationReason[];
}

function plan(ticket: NotifiedTicketRow, events: TicketEvent[]): Plan {
  const personal = new Map<string, NotificationReason[]>();
  const team: NotificationReason[] = [];
  const add = (userId: string, reason: NotificationReason) => personal.set(userId, [...(personal.get(userId) ?? []), reason]);
  const assignee = ticket.assigned_agent_id;
  for (const event of events) {
    if (event.type === 'assigned') {
      const excerpt = excerptOf(ticket.description);
      if (assignee) {
        add(assignee, { kind: 'assigned', viaTeam: false, excerpt });
      } else if (event.teamWhenUnassigned) {
        team.push({ kind: 'assigned', viaTeam: true, excerpt });
      }
    } else if (event.type === 'customerReply') {
      const reason = { kind: 'customerReply' as const, excerpt: excerptOf(event.text), reopened: event.reopened };
      if (assignee) {
        add(assignee, { ...reason, viaTeam: false });
      } else {
        team.push({ ...reason, viaTeam: true });
      }
    } else if (event.type === 'sla') {
      const { metric, policyName, dueAt } = event;
      const reason = { kind: event.alert === 'warning' ? ('slaWarning' as const) : ('slaBreached' as const), excerpt: null };
      const sla = { metric, policyName, dueAt };
      if (assignee) {
        add(assignee, { ...reason, sla, viaTeam: false });
      } else {
        team.push({ ...reason, sla, viaTeam: true });
      }
    } else {
      for (const userId of new Set(event.userIds)) {
        add(userId, { kind: 'mentioned', viaTeam: false, excerpt: excerptOf(event.text) });
      }
    }
  }
  return { personal, team };
}

/** Queues the emails of one change; answers how many it queued. */
export async function notifyTicketChange(trx: Db, deps: Deps, change: TicketChange): Promise<number> {
  const ticket = await findNotifiedTicket(trx, change.organizationId, change.ticketId);
  if (!ticket || (change.skipWhenClosed && readBoolean(ticket.status_is_closed))) {
    return 0;
  }
  const { personal, team } = plan(ticket, change.events);
  if (personal.size === 0 && team.length === 0) {
    return 0;
  }
  const actorId = change.actor.userId;
  // The actor is read with the recipients, for their name; they are never one.
  const rows = await findRecipients(trx, change.organizationId, ticket.team_id, {
    userIds: [...personal.keys(), ...(actorId ? [actorId] : [])],
    teamMembersOf: team.length > 0 ? ticket.team_id : undefined,
  });
  const actorName = change.actor.name ?? rows.find((row) => row.id === actorId)?.name ?? ROUTING;
  let queued = 0;
  for (const row of rows) {
    if (row.id === actorId || !canSee(ticket, row)) {
      continue;
    }
    const own = personal.get(row.id) ?? [];
    const viaTeam = readBoolean(row.is_member) ? team.filter((reason) => !own.some((mine) => mine.kind === reason.kind)) : [];
    const reasons = [...own, ...viaTeam].filter((reason) => prefers(row, reason));
    if (reasons.length === 0) {
      continue;
    }
    const email = renderTicketEmail(ticket, reasons, actorName);
    // Each agent's notifications about a ticket are a thread of their own, apart from the customer's.
    const { created } = await enqueueTicketEmail(trx, deps, {
      organizationId: change.organizationId,
      ticket: { id: ticket.id, identifier: ticket.ticket_identifier, teamId: ticket.team_id },
      commentId: change.commentId ?? null,
      audience: { kind: 'agent', userId: row.id },
      dedupeKey: `notify:${change.changeKey}:${row.id}`,
      to: row.email,
      ...email,
    });
    queued += created ? 1 : 0;
  }
  return queued;
}

/**
 * After an assignment (by hand, at creation, by routing): the new assignee is told. A new ticket
 * nobody was assigned tells its team instead; a ticket created closed (an import of history) tells
 * nobody.
 */
export async function notifyTicketAssigned(
  trx: Db,
  deps: Deps,
  input: {
    organizationId: string;
    ticketId: string;
    /** Who made the change (not told); null for the waiting-tickets worker. */
    actorUserId: string | null;
    /** Routing chose the assignee (in the actor's request): the email says "Routing assigned". */
    byRouting?: boolean;
    created?: boolean;
  },
): Promise<number> {
  return notifyTicketChange(trx, deps, {
    organizationId: input.organizationId,
    ticketId: input.ticketId,
    actor: { userId: input.actorUserId, name: input.byRouting ? ROUTING : undefined },
    // A creation happens once; any other assignment is a change of its own.
    changeKey: input.created ? `ticket-created:${input.ticketId}` : `assignment:${deps.ids.ulid()}`,
    events: [{ type: 'assigned', teamWhenUnassigned: input.created ?? false }],
    skipWhenClosed: input.created,
  });
}

/**
 * The users an internal note mentions who may see its ticket, other than its author: `@email`,
 * `@Full Name`, or ids and emails in `metadata.mentions`.
 */
export async function mentionedUserIds(
  trx: Db,
  organizationId: string,
  text: string,
  metadata: Record<string, unknown> | null,
): Promise<string[]> {
  const candidates = findMentionCandidates(text, metadata);
  const users = await findMentionableUsers(trx, organizationId, {
    ids: candidates.ids,
    emails: candidates.emails,
    names: [...new Set(candidates.names.flat())],
  });
  return resolveMentions(candidates, users);
}
