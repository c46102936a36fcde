import { type TObject, Type } from '@sinclair/typebox';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { StringEnum } from '../../http/shared-schemas.js';
import type { ValidationIssue } from '../../lib/errors.js';
import { OBJECT_ID_PATTERN, ULID_PATTERN } from '../../lib/ids.js';
import { issuesFromAjv } from '../../lib/validation-issues.js';

// ajv-formats is CommonJS with a default export.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

export interface BuiltInTool {
  tool_name: string;
  display_name: string;
  description: string;
  /** JSON Schema of the tool's `configuration`; unknown keys are refused so a typo is not silently ignored. */
  configuration_schema: TObject;
}

const TeamIds = Type.Array(Type.String({ pattern: ULID_PATTERN }), {
  uniqueItems: true,
  maxItems: 100,
  description: 'Restrict the tool to tickets of these teams (platform team ids); empty or absent means every team',
});

const KnowledgeBaseConfiguration = Type.Object(
  {
    max_results: Type.Integer({ minimum: 1, maximum: 50, default: 5, description: 'Most articles returned per search' }),
    include_metadata: Type.Boolean({
      default: false,
      description: 'Add collections, help centers and publication time to each result',
    }),
    help_center_id: Type.Optional(
      Type.Union([Type.Null(), Type.String({ pattern: OBJECT_ID_PATTERN })], {
        description: 'Search one help center only; absent or null searches all of the organization',
      }),
    ),
    collection_ids: Type.Optional(
      Type.Array(Type.String({ pattern: OBJECT_ID_PATTERN }), {
        uniqueItems: true,
        maxItems: 100,
        description: 'Search these collections (and their sub-collections) only',
      }),
    ),
  },
  { additionalProperties: false },
);

const TicketReadConfiguration = Type.Object(
  {
    include_comments: Type.Boolean({ default: true, description: 'Return the latest comments with the ticket' }),
    max_comments: Type.Integer({ minimum: 0, maximum: 50, default: 10, description: 'Most comments returned' }),
    include_private_comments: Type.Boolean({ default: false, description: 'Also return private comments and notes' }),
    team_ids: Type.Optional(TeamIds),
  },
  { additionalProperties: false },
);

const OnlyTeams = Type.Object({ team_ids: Type.Optional(TeamIds) }, { additionalProperties: false });

/**
 * The tools every agent can be given without an MCP server or an external connection. The first
 * eight are the runtime's names; the last three are older names kept so stored agent tools keep
 * working: each runs as the tool it stands for (`runtime/built-in-runtime-tools.ts`).
 */
export const BUILT_IN_TOOLS: readonly BuiltInTool[] = [
  {
    tool_name: 'search_knowledge_base',
    display_name: 'Search knowledge base',
    description:
      "Searches the organization's published help-center articles (never drafts) and returns the best matches with their links.",
    configuration_schema: KnowledgeBaseConfiguration,
  },
  {
    tool_name: 'get_ticket',
    display_name: 'Get ticket',
    description:
      'Reads a ticket the acting user may see, by id or identifier (e.g. WED-5), with its latest comments; by default the ticket the run is about.',
    configuration_schema: TicketReadConfiguration,
  },
  {
    tool_name: 'search_tickets',
    display_name: 'Search tickets',
    description: 'Finds tickets the acting user may see by words and filters (status, requestor, assignee), best match first.',
    configuration_schema: Type.Object(
      {
        max_results: Type.Integer({ minimum: 1, maximum: 50, default: 10, description: 'Most tickets returned per search' }),
        team_ids: Type.Optional(TeamIds),
      },
      { additionalProperties: false },
    ),
  },
  {
    tool_name: 'create_ticket',
    display_name: 'Create ticket',
    description: 'Opens a ticket for a customer in a team, routed like any new ticket.',
    configuration_schema: Type.Object(
      {
        team_id: Type.Optional(
          Type.String({ pattern: ULID_PATTERN, description: 'Team of the tickets it creates when the model names none' }),
        ),
        team_ids: Type.Optional(TeamIds),
        perform_routing: Type.Boolean({
          default: true,
          description: "Run the team's routing rules and agent assignment on the new ticket",
        }),
      },
      { additionalProperties: false },
    ),
  },
  {
    tool_name: 'add_internal_note',
    display_name: 'Add internal note',
    description: 'Adds a private note to a ticket (by default the ticket the run is about), marked as written by the agent.',
    configuration_schema: OnlyTeams,
  },
  {
    tool_name: 'reply_to_customer',
    display_name: 'Reply to customer',
    description:
      'Posts a public reply on a ticket (by default the ticket the run is about), marked as written by the agent, and emails it.',
    configuration_schema: Type.Object(
      {
        should_send_email: Type.Boolean({ default: true, description: 'Email the reply to the requestor' }),
        team_ids: Type.Optional(TeamIds),
      },
      { additionalProperties: false },
    ),
  },
  {
    tool_name: 'lookup_contact',
    display_name: 'Look up contact',
    description: 'Finds a customer contact by email or id, with their accounts and latest tickets.',
    configuration_schema: Type.Object(
      {
        include_tickets: Type.Boolean({
          default: true,
          description: "Return the contact's latest tickets the acting user may see",
        }),
        max_tickets: Type.Integer({ minimum: 0, maximum: 20, default: 5, description: 'Most tickets returned' }),
      },
      { additionalProperties: false },
    ),
  },
  {
    tool_name: 'handoff_to_human',
    display_name: 'Hand off to a human',
    description:
      'Assigns a ticket (by default the ticket the run is about) to a human agent through the routing engine, with a note saying why.',
    configuration_schema: OnlyTeams,
  },
  {
    tool_name: 'knowledge_base_search',
    display_name: 'Knowledge base search',
    description: 'Older name of search_knowledge_base: searches the published help-center articles.',
    configuration_schema: KnowledgeBaseConfiguration,
  },
  {
    tool_name: 'ticket_lookup',
    display_name: 'Ticket lookup',
    description: 'Older name of get_ticket: finds a ticket by id or identifier (e.g. WED-5) with its latest comments.',
    configuration_schema: TicketReadConfiguration,
  },
  {
    tool_name: 'create_ticket_comment',
    display_name: 'Create ticket comment',
    description:
      'Older name: adds a comment to a ticket on behalf of the agent, a private note (as add_internal_note) or a public reply (as reply_to_customer).',
    configuration_schema: Type.Object(
      {
        comment_visibility: StringEnum(['public', 'private'] as const, {
          default: 'private',
          description: 'Visibility of the comments the agent writes; private keeps them internal',
        }),
        should_send_email: Type.Boolean({ default: false, description: 'Email the requestor about a public comment' }),
        team_ids: Type.Optional(TeamIds),
      },
      { additionalProperties: false },
    ),
  },
];

export function findBuiltInTool(toolName: string): BuiltInTool | undefined {
  return BUILT_IN_TOOLS.find((tool) => tool.tool_name === toolName);
}

let ajv: Ajv | undefined;
const validators = new Map<string, ValidateFunction>();

function validatorFor(tool: BuiltInTool): ValidateFunction {
  let validate = validators.get(tool.tool_name);
  if (!validate) {
    ajv ??= addFormats(new Ajv({ allErrors: true, useDefaults: true, strict: false }));
    validate = ajv.compile(tool.configuration_schema);
    validators.set(tool.tool_name, validate);
  }
  return validate;
}

/**
 * Checks a configuration against the tool's schema. A valid one comes back with the schema's
 * defaults filled in (that is what gets stored); an invalid one as issues located under
 * `body.configuration`. `null` or absent counts as `{}`.
 */
export function checkBuiltInConfiguration(
  tool: BuiltInTool,
  configuration: Record<string, unknown> | null | undefined,
): { ok: true; configuration: Record<string, unknown> } | { ok: false; issues: ValidationIssue[] } {
  const candidate = structuredClone(configuration ?? {});
  const validate = validatorFor(tool);
  if (validate(candidate)) {
    return { ok: true, configuration: candidate };
  }
  const issues = issuesFromAjv(validate.errors ?? [], 'body').map((issue) => ({
    ...issue,
    path: ['configuration', ...issue.path],
    // Worded as pydantic words an unknown key of a strict model.
    ...(issue.rule === 'additionalProperties' ? { rule: 'extra_forbidden', message: 'Extra inputs are not permitted' } : {}),
  }));
  return { ok: false, issues };
}
