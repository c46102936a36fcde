import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../deps.js';
import { setUpArea } from '../http/area.js';
import { accountRoutes } from './accounts/account.routes.js';
import { accountAttributeRoutes } from './accounts/account-attribute.routes.js';
import { attachmentRoutes } from './attachments/attachment.routes.js';
import { authRoutes } from './auth/auth.routes.js';
import { configRoutes } from './config-transfer/config.routes.js';
import { customerContactRoutes } from './contacts/customer-contact.routes.js';
import { customFieldRoutes } from './custom-fields/custom-field.routes.js';
import { outboxRoutes } from './email-outbox/email-outbox.routes.js';
import { eventRoutes } from './events/event.routes.js';
import { macroRoutes } from './macros/macro.routes.js';
import { mailboxRoutes } from './mailboxes/mailbox.routes.js';
import { accountNoteRoutes } from './notes/account-note.routes.js';
import { accountNoteAttachmentRoutes } from './notes/account-note-attachment.routes.js';
import { notificationPreferenceRoutes } from './notifications/notification-preference.routes.js';
import { CustomFieldErrorSchema, PlatformErrorSchema } from './platform.envelope.js';
import { renderPlatformError } from './platform.errors.js';
import { reportRoutes } from './reports/report.routes.js';
import { routingRoutes } from './routing/routing.routes.js';
import { routingRuleRoutes } from './routing-rules/routing-rule.routes.js';
import { satisfactionRoutes } from './satisfaction/satisfaction.routes.js';
import { satisfactionPageRoutes } from './satisfaction/satisfaction-page.routes.js';
import { slaPolicyRoutes } from './sla-policies/sla-policy.routes.js';
import { teamConfigurationRoutes } from './team-configurations/team-configuration.routes.js';
import { teamTagRoutes } from './team-tags/team-tag.routes.js';
import { teamRoutes } from './teams/team.routes.js';
import { ticketActivityRoutes } from './ticket-activities/ticket-activity.routes.js';
import { ticketBulkRoutes } from './ticket-bulk/ticket-bulk.routes.js';
import { ticketEmailRoutes } from './ticket-emails/ticket-email.routes.js';
import { ticketMergeRoutes } from './ticket-merges/ticket-merge.routes.js';
import { ticketSearchRoutes } from './ticket-search/ticket-search.routes.js';
import { ticketSlaRoutes } from './ticket-sla/ticket-sla.routes.js';
import { ticketTagRoutes } from './ticket-tags/ticket-tag.routes.js';
import { chatTicketRoutes } from './tickets/chat-ticket.routes.js';
import { commentRoutes } from './tickets/comment.routes.js';
import { ticketRoutes } from './tickets/ticket.routes.js';
import { userRoutes } from './users/user.routes.js';
import { userBusinessHoursRoutes } from './users/user-business-hours.routes.js';
import { viewRoutes } from './views/view.routes.js';
import { webhookRoutes } from './webhooks/webhook.routes.js';

/**
 * A channel's routes in the platform's API (its keys, sessions, error shape and document), under
 * `prefix`: the channels sit above the platform, so the app hands them in.
 */
export interface ChannelRoutes {
  prefix: string;
  routes: FastifyPluginAsyncTypebox;
}

/** The support platform, mounted under `/v1`. */
export function platformPlugin(deps: AppDeps, channels: readonly ChannelRoutes[] = []): FastifyPluginAsyncTypebox {
  return async (app) => {
    await setUpArea(app, deps, {
      name: 'platform',
      title: 'Switchboard support platform',
      description: 'Teams, tickets and comments, custom fields, accounts, contacts and notes.',
      errorSchemas: { PlatformError: PlatformErrorSchema, CustomFieldError: CustomFieldErrorSchema },
      // The console signs people in and calls this API with their session cookie.
      acceptsSessions: true,
      tags: [
        {
          name: 'auth',
          description:
            'Signing people in to the web console: passwords chosen through emailed invitation and reset links, browser ' +
            'sessions carried in a cookie (every route here accepts it instead of an API key; writes made with it send the ' +
            'x-csrf-token header), and the list of your sessions, each of which can be ended.',
        },
        {
          name: 'users',
          description:
            'People of the organization, their API keys, availability, own business hours and email notification switches.',
        },
        {
          name: 'teams',
          description: 'Teams and sub-teams, their members, tags and configuration (business hours, routing switches).',
        },
        {
          name: 'routing',
          description: 'Rules that send new tickets to a team, round-robin assignment, simulation and the decisions taken.',
        },
        { name: 'tickets', description: 'Tickets, their comments and threads, statuses and priorities.' },
        {
          name: 'custom fields',
          description: 'Fields an organization adds to tickets, accounts and contacts, with their validation.',
        },
        { name: 'accounts', description: 'Customer companies, their attributes and custom field values.' },
        { name: 'contacts', description: 'Customer contacts and the accounts they belong to.' },
        { name: 'notes', description: 'Notes on an account, with linked or uploaded attachments.' },
        { name: 'attachments', description: 'Files uploaded for comments and notes, and their downloads.' },
        { name: 'outbox', description: 'Email sent for tickets: delivery state, and resending what could not be delivered.' },
        {
          name: 'mailboxes',
          description:
            'Support addresses whose mail becomes tickets: received by the built-in SMTP receiver or fetched over IMAP.',
        },
        {
          name: 'satisfaction',
          description:
            "Customer satisfaction surveys: a team's settings, the survey emailed when a ticket closes, and the customer's rating.",
        },
        {
          name: 'sla-policies',
          description: 'SLA policies: reply and resolution targets per priority, in business or calendar time.',
        },
        { name: 'macros', description: 'Canned replies with placeholders and ticket changes, applied to a ticket in one step.' },
        { name: 'views', description: 'Saved filters and sorts of the ticket list, personal or shared, with their counts.' },
        {
          name: 'events',
          description: 'The log of every change, written with the change: for integrations that follow what happened.',
        },
        {
          name: 'configuration',
          description:
            "The organization's set-up (teams, their tags, configuration and routing rules, custom fields, shared macros " +
            'and views, mailboxes, webhooks) as one document that names objects rather than ids and holds no secret: ' +
            'exported, kept in version control, and imported here or into another instance.',
        },
        {
          name: 'reports',
          description:
            "Volume, first reply and resolution times, and agents, per day, week or month in each team's time zone, " +
            'from aggregates kept with every change; as JSON or CSV.',
        },
        {
          name: 'slack',
          description:
            'Slack as a channel: the app installed per organization by OAuth v2, and the Events API URL Slack signs its requests to.',
        },
        {
          name: 'webhooks',
          description:
            'Events POSTed to your endpoints as they happen, signed as Standard Webhooks, retried for three days, with ' +
            'every attempt on record.',
        },
      ],
      renderError: renderPlatformError(deps.clock),
    });
    // A change this process committed reaches the live views that wait on it at once (an agent's
    // reply in a visitor's messenger panel), not at the next watch of the log.
    // A callback hook, not an async one: it runs on every request.
    app.addHook('onResponse', (request, reply, done) => {
      if (request.method !== 'GET' && request.method !== 'HEAD' && reply.statusCode < 400 && request.principal) {
        deps.eventSignal.wroteHere(request.principal.organizationId);
      }
      done();
    });
    await app.register(attachmentRoutes(deps));
    await app.register(outboxRoutes(deps));
    await app.register(userBusinessHoursRoutes(deps));
    await app.register(notificationPreferenceRoutes(deps));
    await app.register(userRoutes(deps));
    await app.register(authRoutes(deps));
    await app.register(teamTagRoutes(deps));
    await app.register(routingRuleRoutes(deps));
    await app.register(routingRoutes(deps));
    await app.register(slaPolicyRoutes(deps));
    await app.register(teamRoutes(deps));
    await app.register(customFieldRoutes(deps));
    await app.register(ticketSearchRoutes(deps));
    await app.register(ticketRoutes(deps));
    await app.register(ticketTagRoutes(deps));
    await app.register(ticketBulkRoutes(deps));
    await app.register(ticketMergeRoutes(deps));
    await app.register(ticketActivityRoutes(deps));
    await app.register(ticketSlaRoutes(deps));
    await app.register(chatTicketRoutes(deps));
    await app.register(commentRoutes(deps));
    await app.register(teamConfigurationRoutes(deps));
    await app.register(accountAttributeRoutes(deps));
    await app.register(customerContactRoutes(deps));
    await app.register(accountNoteRoutes(deps));
    await app.register(accountNoteAttachmentRoutes(deps));
    await app.register(accountRoutes(deps));
    await app.register(macroRoutes(deps));
    await app.register(viewRoutes(deps));
    await app.register(eventRoutes(deps));
    await app.register(webhookRoutes(deps));
    for (const channel of channels) {
      await app.register(channel.routes, { prefix: channel.prefix });
    }
    await app.register(mailboxRoutes(deps));
    await app.register(satisfactionRoutes(deps));
    await app.register(satisfactionPageRoutes(deps));
    await app.register(ticketEmailRoutes(deps));
    await app.register(configRoutes(deps));
    await app.register(reportRoutes(deps));
  };
}
