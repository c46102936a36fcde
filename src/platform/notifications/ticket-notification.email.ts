/**
 * The text of a ticket email: what happened, the ticket's identifier and title, a short excerpt,
 * and why the reader got it. Pure; the service decides who gets which reasons.
 */

export type NotificationKind = 'assigned' | 'customerReply' | 'mentioned' | 'slaWarning' | 'slaBreached';

export interface NotificationReason {
  kind: NotificationKind;
  /** True when the reader gets it only as a member of the team of an unassigned ticket. */
  viaTeam: boolean;
  excerpt: string | null;
  /** Customer replies: the reply took the ticket out of a closed status. */
  reopened?: boolean;
  /** SLA alerts: which target, of which policy, and when it is (or was) due. */
  sla?: { metric: string; policyName: string; dueAt: string };
}

export interface EmailTicket {
  ticket_identifier: string;
  title: string;
  team_name: string;
}

const EXCERPT_LENGTH = 280;

/** One line of at most 280 characters, cut at a word. */
export function excerptOf(text: string | null | undefined): string | null {
  const flat = (text ?? '').replace(/\s+/g, ' ').trim();
  if (flat === '') {
    return null;
  }
  if (flat.length <= EXCERPT_LENGTH) {
    return flat;
  }
  const cut = flat.slice(0, EXCERPT_LENGTH);
  const space = cut.lastIndexOf(' ');
  return `${(space > EXCERPT_LENGTH / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** A header-safe line: user text may hold line breaks, which have no place in a subject. */
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/** The SLA metric as a sentence names it. */
const METRIC_NAMES: Record<string, string> = {
  firstReply: 'first reply',
  nextReply: 'next reply',
  periodicUpdate: 'periodic update',
  resolution: 'resolution',
};
const metricName = (reason: NotificationReason) => METRIC_NAMES[reason.sla?.metric ?? ''] ?? reason.sla?.metric ?? 'target';

/** Which reason names the email, when a reader has several for one change. */
const PRECEDENCE = (reason: NotificationReason) =>
  reason.viaTeam ? 3 : ({ slaBreached: 0, slaWarning: 0, assigned: 1, mentioned: 2, customerReply: 3 } as const)[reason.kind];

export function sortReasons(reasons: NotificationReason[]): NotificationReason[] {
  return [...reasons].sort((a, b) => PRECEDENCE(a) - PRECEDENCE(b));
}

function subjectOf(ticket: EmailTicket, reason: NotificationReason, actorName: string): string {
  const title = oneLine(ticket.title);
  const prefix = `[${oneLine(ticket.ticket_identifier)}]`;
  switch (reason.kind) {
    case 'assigned':
      return reason.viaTeam
        ? `${prefix} New ticket for ${oneLine(ticket.team_name)}: ${title}`
        : `${prefix} Assigned to you: ${title}`;
    case 'mentioned':
      return `${prefix} ${oneLine(actorName)} mentioned you: ${title}`;
    case 'customerReply':
      return `${prefix} ${reason.reopened ? 'Reopened by a customer reply' : 'Customer replied'}: ${title}`;
    case 'slaWarning':
      return `${prefix} SLA warning, ${metricName(reason)} due soon: ${title}`;
    case 'slaBreached':
      return `${prefix} SLA breached, ${metricName(reason)} overdue: ${title}`;
  }
}

function sentenceOf(ticket: EmailTicket, reason: NotificationReason, actorName: string): string {
  const id = ticket.ticket_identifier;
  const actor = oneLine(actorName);
  switch (reason.kind) {
    case 'assigned':
      return reason.viaTeam
        ? `${id} is new in ${ticket.team_name}, and nobody is assigned to it yet.`
        : `${actor} assigned ${id} to you.`;
    case 'mentioned':
      return `${actor} mentioned you in an internal note on ${id}.`;
    case 'customerReply': {
      const where = reason.viaTeam ? `; nobody in ${ticket.team_name} is assigned to it yet` : ', which is assigned to you';
      return `${actor} replied on ${id}${where}.${reason.reopened ? ' The ticket was closed and is open again.' : ''}`;
    }
    case 'slaWarning':
    case 'slaBreached': {
      const policy = `the SLA policy "${oneLine(reason.sla?.policyName ?? '')}"`;
      const due = reason.sla?.dueAt ?? '';
      return reason.kind === 'slaWarning'
        ? `The ${metricName(reason)} of ${id} is due at ${due} under ${policy}.`
        : `The ${metricName(reason)} of ${id} was due at ${due} under ${policy}, and is breached.`;
    }
  }
}

function whyOf(ticket: EmailTicket, reasons: NotificationReason[]): string {
  const why = new Set(
    reasons.map((reason) =>
      reason.viaTeam
        ? `you are a member of ${ticket.team_name}`
        : reason.kind === 'mentioned'
          ? 'you were mentioned'
          : 'you are the assignee',
    ),
  );
  return `You get this email because ${[...why].join(' and ')}. Turn these emails off with PATCH /v1/users/me/notifications.`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/**
 * One email for one reader and everything one change did that concerns them; `actorName` is who
 * did it as the email names them: a user, the customer, or "Routing".
 */
export function renderTicketEmail(ticket: EmailTicket, reasons: NotificationReason[], actorName: string) {
  const sorted = sortReasons(reasons);
  const [first] = sorted;
  if (!first) {
    throw new Error('a ticket email needs a reason');
  }
  const sentences = sorted.map((reason) => sentenceOf(ticket, reason, actorName));
  const excerpts = [...new Set(sorted.map((reason) => reason.excerpt).filter((text): text is string => Boolean(text)))];
  const heading = `${ticket.ticket_identifier} · ${oneLine(ticket.title)}`;
  const why = whyOf(ticket, sorted);
  const text = [
    ...sentences,
    '',
    heading,
    `Team: ${ticket.team_name}`,
    ...excerpts.flatMap((excerpt) => ['', `> ${excerpt}`]),
    '',
    '—',
    why,
  ].join('\n');
  const html = [
    ...sentences.map((sentence) => `<p>${escapeHtml(sentence)}</p>`),
    `<p><strong>${escapeHtml(heading)}</strong><br>Team: ${escapeHtml(ticket.team_name)}</p>`,
    ...excerpts.map((excerpt) => `<blockquote>${escapeHtml(excerpt)}</blockquote>`),
    `<p style="color:#666">${escapeHtml(why)}</p>`,
  ].join('\n');
  return { subject: subjectOf(ticket, first, actorName), text, html };
}
