import type { Static, TObject } from '@sinclair/typebox';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { AppError, type ValidationIssue } from '../../../lib/errors.js';
import type { Principal } from '../../../lib/principal.js';
import { issuesFromAjv } from '../../../lib/validation-issues.js';
import type { AgentAuthor } from '../../../platform/tickets/comment.service.js';
import { findLiveUser } from '../../../platform/users/user.lookup.js';
import { findLiveAgent } from '../../agents/agent.lookup.js';
import { checkBuiltInConfiguration, findBuiltInTool } from '../../tools/built-in-tools.js';
import { type CustomerReach, customerReachOf } from '../run-principal.js';
import type { RuntimeTool, ToolCallContext } from '../runtime-tool.js';

// ajv-formats is CommonJS with a default export.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/** What a built-in tool's body is handed for one call. */
export interface BuiltInCall<Configuration> {
  context: ToolCallContext;
  /** The acting user as a platform principal: every service call goes through it, so its visibility rules hold. */
  principal: Principal;
  /**
   * When the run acts for a customer: what the tool may show is narrowed further to that
   * customer's reach (the ticket answered, their own tickets' public comments, their own contact,
   * articles anyone may read). Null when the run acts for the user.
   */
  customer: CustomerReach | null;
  /** The tool's stored configuration, with the catalog's defaults filled in. */
  configuration: Configuration;
  /** The agent, as the author of the comments it writes. */
  agent(): Promise<AgentAuthor>;
}

/** One built-in tool: what the model is told, the JSON Schema of its arguments, and its body. */
export interface BuiltInToolSpec<Args extends TObject, Configuration> {
  description: string;
  arguments: Args;
  run(args: Static<Args>, call: BuiltInCall<Configuration>): Promise<unknown>;
}

let ajv: Ajv | undefined;
const validators = new WeakMap<TObject, ValidateFunction>();

/** Arguments are checked as sent: no coercion (a model sending "5" for a number is told so), defaults filled. */
function validatorOf(schema: TObject): ValidateFunction {
  let validate = validators.get(schema);
  if (!validate) {
    ajv ??= addFormats(new Ajv({ allErrors: true, useDefaults: true, strict: false, coerceTypes: false }));
    validate = ajv.compile(schema);
    validators.set(schema, validate);
  }
  return validate;
}

function describe(issues: ValidationIssue[]): string {
  return issues
    .map((issue) => (issue.path.length > 0 ? `${issue.path.join('.')} ${issue.message}` : `arguments ${issue.message}`))
    .join('; ');
}

/** The arguments as the schema reads them, or an Error naming every problem. */
export function checkArguments<Args extends TObject>(schema: Args, args: unknown): Static<Args> {
  const candidate = args === undefined || args === null ? {} : structuredClone(args);
  const validate = validatorOf(schema);
  if (!validate(candidate)) {
    throw new Error(`Invalid arguments: ${describe(issuesFromAjv(validate.errors ?? [], 'body'))}`);
  }
  return candidate as Static<Args>;
}

/**
 * The acting user as a principal, read afresh on every call: a user deleted or disabled since the
 * run began stops the agent acting for them, as it stops their API keys and sessions.
 */
export async function actingPrincipal(
  context: Pick<ToolCallContext, 'deps' | 'organizationId' | 'actingUserId'>,
): Promise<Principal> {
  const user = await findLiveUser(context.deps.db, context.organizationId, context.actingUserId);
  if (!user) {
    throw new Error('The user this agent acts for does not exist in the organization');
  }
  if (user.disabled_at !== null) {
    throw new Error('The user this agent acts for is disabled');
  }
  return { organizationId: user.organization_id, userId: user.id, userType: user.user_type };
}

async function agentAuthor(context: ToolCallContext): Promise<AgentAuthor> {
  const agent = await findLiveAgent(context.deps.db, context.organizationId, context.agentId);
  if (!agent) {
    throw new Error('Agent not found');
  }
  return { agentId: agent.id, name: agent.name, avatarUrl: agent.avatar_url };
}

/**
 * The platform's errors carry an HTTP meaning (`AppError`) that must not leak out of a run as a
 * response status: the run reports the message, so it travels as a plain Error.
 */
function asToolError(error: unknown): Error {
  if (error instanceof AppError) {
    return new Error(error.message, { cause: error });
  }
  return error instanceof Error ? error : new Error(String(error));
}

/**
 * The runtime tool of a built-in under the name `toolName` (an agent tool's `tool_name`, which
 * may be an older alias of the tool), with its configuration checked against the catalog's schema
 * of that name. A configuration that no longer passes makes every call fail with the reason,
 * rather than acting on settings nobody chose.
 */
export function makeBuiltInTool<Args extends TObject, Configuration>(
  toolName: string,
  spec: BuiltInToolSpec<Args, Configuration>,
  stored: Record<string, unknown>,
): RuntimeTool {
  const catalogEntry = findBuiltInTool(toolName);
  const checked = catalogEntry ? checkBuiltInConfiguration(catalogEntry, stored) : null;
  return {
    name: toolName,
    description: spec.description,
    parameters: JSON.parse(JSON.stringify(spec.arguments)) as Record<string, unknown>,
    async execute(args, context) {
      context.signal.throwIfAborted();
      if (!checked) {
        throw new Error(`Tool ${toolName} is not in the built-in catalog`);
      }
      if (!checked.ok) {
        // The catalog locates issues under `configuration`, as the tool routes report them.
        const issues = checked.issues.map((issue) => ({ ...issue, path: issue.path.slice(1) }));
        throw new Error(`The configuration of tool ${toolName} is invalid: ${describe(issues)}`);
      }
      const valid = checkArguments(spec.arguments, args);
      try {
        const principal = await actingPrincipal(context);
        context.signal.throwIfAborted();
        return await spec.run(valid, {
          context,
          principal,
          customer: customerReachOf(context.principal, context.ticketId),
          configuration: checked.configuration as Configuration,
          agent: () => agentAuthor(context),
        });
      } catch (error) {
        throw asToolError(error);
      }
    },
  };
}

/** The ticket a call names, else the run's own ticket; a chat run that names none is told to. */
export function ticketOfCall(ticketId: string | undefined, context: ToolCallContext): string {
  const chosen = ticketId ?? context.ticketId;
  if (!chosen) {
    throw new Error('ticket_id is required: this run is not about a ticket');
  }
  return chosen;
}

/** The same answer as for a ticket the acting user cannot see: a customer's run learns nothing of others' tickets. */
export const TICKET_NOT_FOUND = 'Ticket not found!';

/** A ticket a customer's run may read: the one it answers, or another of the same requester. */
export function requireCustomersTicket(customer: CustomerReach, ticket: { id: string; customerContactId: string | null }): void {
  const own = ticket.id === customer.ticketId || (customer.contactId !== null && ticket.customerContactId === customer.contactId);
  if (!own) {
    throw new Error(TICKET_NOT_FOUND);
  }
}

/**
 * A tool limited to some teams (`team_ids` in its configuration) treats a ticket of another team
 * as one it cannot see: the same message as a missing ticket, so the limit reveals nothing.
 */
export function requireAllowedTeam(configuration: { team_ids?: string[] }, teamId: string): void {
  const allowed = configuration.team_ids ?? [];
  if (allowed.length > 0 && !allowed.includes(teamId)) {
    throw new Error(TICKET_NOT_FOUND);
  }
}
