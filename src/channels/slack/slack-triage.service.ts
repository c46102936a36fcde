import { type Config, publicBaseUrl } from '../../config.js';
import type { Ticket } from '../../platform/tickets/ticket.presenter.js';
import { TRIAGE_ACTIONS } from './slack-interactions.service.js';
import { escapeSlackText } from './slack-mrkdwn.js';

/** Who asked: the contact's name and email, or the requestor's email. */
function requesterOf(ticket: Ticket): string {
  const name = [ticket.customerContactFirstName, ticket.customerContactLastName].filter(Boolean).join(' ');
  const email = ticket.customerContactEmail ?? ticket.requestorEmail;
  return name ? `${name} (${email})` : email;
}

/** A field of the post: its label in bold, its value escaped (text from users). */
const field = (label: string, value: string | null | undefined) => ({
  type: 'mrkdwn',
  text: `*${label}*\n${escapeSlackText(value || '—')}`,
});

/** The ticket's page in the console. */
export function ticketUrl(config: Config, ticketId: string): string {
  return `${publicBaseUrl(config, 'platform')}/app/tickets/${ticketId}`;
}

/**
 * A ticket's post in a triage channel (Block Kit): its identifier and title (a link to it), the
 * requester, account, priority, status and assignee, and the buttons "Assign to me" and "Close"
 * (acted on by `runSlackInteraction`, each with the ticket's id as its value) and "Open in
 * Switchboard" (a link). `text` is what notifications and screen readers show.
 */
export function triageMessage(config: Config, ticket: Ticket) {
  const url = ticketUrl(config, ticket.id);
  const title = `${ticket.ticketIdentifier}: ${ticket.title}`;
  return {
    text: `New ticket ${title}`,
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: `*<${url}|${escapeSlackText(title).replace(/\|/g, '/')}>*` } },
      {
        type: 'section',
        fields: [
          field('Requester', requesterOf(ticket)),
          field('Account', ticket.account),
          field('Priority', ticket.priority),
          field('Status', ticket.status),
          field('Assignee', ticket.assignedAgent ?? 'Unassigned'),
          field('Team', ticket.teamName),
        ],
      },
      {
        type: 'actions',
        elements: [
          button('Assign to me', TRIAGE_ACTIONS.assignToMe, { value: ticket.id, style: 'primary' }),
          button('Close', TRIAGE_ACTIONS.close, { value: ticket.id }),
          button('Open in Switchboard', TRIAGE_ACTIONS.open, { value: ticket.id, url }),
        ],
      },
    ],
  };
}

function button(label: string, actionId: string, options: { value: string; style?: 'primary'; url?: string }) {
  return {
    type: 'button',
    action_id: actionId,
    text: { type: 'plain_text', text: label },
    value: options.value,
    ...(options.style ? { style: options.style } : {}),
    ...(options.url ? { url: options.url } : {}),
  };
}
