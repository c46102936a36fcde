import { createHash } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import { loadOnce } from '../../../lib/load-once.js';
import { addComment } from '../../../platform/tickets/comment.service.js';
import { getTicket } from '../../../platform/tickets/ticket.service.js';
import { createTicket } from '../../../platform/tickets/ticket-create.service.js';
import type { RuntimeTool, ToolCallContext } from '../runtime-tool.js';
import { type BuiltInCall, makeBuiltInTool, requireAllowedTeam, ticketOfCall } from './built-in-tool.js';
import { TicketIdArgument } from './ticket-read.tools.js';
import { ticketSummary } from './ticket-summary.js';

/** marked, imported for the first comment an agent writes rather than at every start. */
const loadMarked = loadOnce(async () => (await import('marked')).marked);

const ContentArgument = Type.String({
  minLength: 1,
  maxLength: 20_000,
  description: 'The text, in Markdown',
});

const CommentArguments = Type.Object(
  { ticket_id: Type.Optional(TicketIdArgument), content: ContentArgument },
  { additionalProperties: false },
);

interface CommentConfiguration {
  team_ids?: string[];
  should_send_email?: boolean;
}

type CommentArgs = { ticket_id?: string; content: string };

/**
 * Writes a comment as the agent: Markdown rendered to HTML (the comment service sanitises it),
 * the agent as author. Its `deDuplicationKey` is the run's and the text's, so a step the run
 * replays (after a provider retry or a crash) finds the comment it already wrote instead of
 * posting it twice, and a second identical comment in one run is the first one.
 */
async function writeComment(
  args: CommentArgs,
  call: BuiltInCall<CommentConfiguration>,
  kind: { visibility: 'public' | 'private'; sendEmail: boolean },
) {
  const { context, principal, configuration } = call;
  const ticket = await getTicket(context.deps.db, principal, ticketOfCall(args.ticket_id, context));
  requireAllowedTeam(configuration, ticket.teamId);
  const marked = await loadMarked();
  context.signal.throwIfAborted();
  const { comment, created } = await addComment(
    context.deps,
    principal,
    ticket.id,
    {
      content: args.content,
      contentHtml: marked.parse(args.content, { async: false, gfm: true }),
      commentType: kind.visibility === 'private' ? 'note' : 'comment',
      commentVisibility: kind.visibility,
      shouldSendEmail: kind.sendEmail,
      deDuplicationKey: commentKey(context, kind.visibility, args.content),
      metadata: { agentId: context.agentId, runId: context.runId },
    },
    { agent: await call.agent() },
  );
  return {
    comment_id: comment.id,
    ticket: { id: ticket.id, identifier: ticket.ticketIdentifier },
    visibility: comment.commentVisibility,
    emailed_to_requestor: kind.visibility === 'public' && kind.sendEmail ? ticket.requestorEmail : null,
    ...(created ? {} : { note: 'This run had already written this comment; it was not posted again.' }),
  };
}

function commentKey(context: ToolCallContext, visibility: string, content: string): string {
  const digest = createHash('sha256').update(`${visibility}\n${content}`).digest('base64url').slice(0, 32);
  return `agent-run:${context.runId}:${digest}`;
}

export function addInternalNoteTool(toolName: string, configuration: Record<string, unknown>): RuntimeTool {
  return makeBuiltInTool(
    toolName,
    {
      description:
        'Adds a private internal note to a support ticket, seen by the support team only, never by the customer. ' +
        'Use it for findings, suggested replies and context for a human.',
      arguments: CommentArguments,
      run: (args, call: BuiltInCall<CommentConfiguration>) =>
        writeComment(args, call, { visibility: 'private', sendEmail: false }),
    },
    configuration,
  );
}

export function replyToCustomerTool(toolName: string, configuration: Record<string, unknown>): RuntimeTool {
  return makeBuiltInTool(
    toolName,
    {
      description:
        'Posts a public reply on a support ticket: the customer sees it, and it is emailed to them. ' +
        'Write it to the customer, and only what you are sure of.',
      arguments: CommentArguments,
      run: (args, call: BuiltInCall<CommentConfiguration>) =>
        writeComment(args, call, { visibility: 'public', sendEmail: call.configuration.should_send_email ?? true }),
    },
    configuration,
  );
}

/** `create_ticket_comment`, the older name: a note or a public reply, as its configuration says. */
export function createTicketCommentTool(toolName: string, configuration: Record<string, unknown>): RuntimeTool {
  const visibility = configuration.comment_visibility === 'public' ? 'public' : 'private';
  return makeBuiltInTool(
    toolName,
    {
      description:
        visibility === 'public'
          ? 'Posts a public comment on a support ticket; the customer sees it.'
          : 'Adds a private internal note to a support ticket; the customer never sees it.',
      arguments: CommentArguments,
      run: (args, call: BuiltInCall<CommentConfiguration>) =>
        writeComment(args, call, {
          visibility,
          sendEmail: visibility === 'public' && (call.configuration.should_send_email ?? false),
        }),
    },
    configuration,
  );
}

interface CreateTicketConfiguration {
  team_id?: string;
  team_ids?: string[];
  perform_routing: boolean;
}

const CreateTicketArguments = Type.Object(
  {
    title: Type.String({ minLength: 1, maxLength: 500, description: 'A short summary of the request' }),
    description: Type.Optional(Type.String({ maxLength: 20_000, description: 'The request in full' })),
    requestor_email: Type.String({ format: 'email', maxLength: 320, description: "The customer's email" }),
    team_id: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, description: "The team's id; leave out for the default team" }),
    ),
    priority: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, description: 'A priority name, e.g. low, medium, high' }),
    ),
  },
  { additionalProperties: false },
);

type CreateTicketArgs = { title: string; description?: string; requestor_email: string; team_id?: string; priority?: string };

async function openTicket(args: CreateTicketArgs, { context, principal, configuration }: BuiltInCall<CreateTicketConfiguration>) {
  const teamId = args.team_id ?? configuration.team_id;
  if (!teamId) {
    throw new Error('team_id is required: this tool has no default team');
  }
  const allowed = configuration.team_ids ?? [];
  if (allowed.length > 0 && !allowed.includes(teamId)) {
    throw new Error(`team_id must be one of the teams this tool may use: ${allowed.join(', ')}`);
  }
  const ticket = await createTicket(context.deps, principal, {
    title: args.title,
    description: args.description,
    requestorEmail: args.requestor_email,
    teamId,
    priorityName: args.priority,
    source: 'ai_agent',
    performRouting: configuration.perform_routing,
    metadata: { agentId: context.agentId, runId: context.runId },
  });
  return { created: true, ticket: ticketSummary(ticket) };
}

export function createTicketTool(toolName: string, configuration: Record<string, unknown>): RuntimeTool {
  return makeBuiltInTool(
    toolName,
    {
      description:
        'Opens a new support ticket for a customer; it is routed to an agent like any new ticket. ' +
        'Search first (search_tickets) so the same request is not filed twice.',
      arguments: CreateTicketArguments,
      run: openTicket,
    },
    configuration,
  );
}
