import type { Static } from '@sinclair/typebox';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/database.js';
import { readBoolean, readJson, writeJson } from '../../db/dialect.js';
import type { Clock } from '../../lib/clock.js';
import { keysetPage } from '../../lib/cursors.js';
import { AppError, type ValidationIssue } from '../../lib/errors.js';
import type { IdFactory } from '../../lib/ids.js';
import type { Principal } from '../../lib/principal.js';
import { describeIssue } from '../../lib/validation-issues.js';
import { isOrgAdmin } from '../../platform/authorization.js';
import { DEFAULT_LIST_LIMIT, readListCursor } from '../agent-studio.pagination.js';
import { ACCESS_DENIED, requireAgent, requireManageableAgent } from '../agents/agent.lookup.js';
import { type Configuration, toAgentTool } from './agent-tool.presenter.js';
import {
  type AgentToolRow,
  deleteAgentTool,
  findAgentToolById,
  findAgentToolByName,
  insertAgentTool,
  listAgentTools,
  mcpServerBelongsToAgent,
  updateAgentTool,
} from './agent-tool.repository.js';
import type { CreateAgentToolSchema, ListAgentToolsQuerySchema, UpdateAgentToolSchema } from './agent-tool.schemas.js';
import type { ToolType } from './agent-tool.table.js';
import { BUILT_IN_TOOLS, checkBuiltInConfiguration, findBuiltInTool } from './built-in-tools.js';

interface Deps {
  db: Kysely<DB>;
  clock: Clock;
  ids: IdFactory;
}

/** What a tool is, independent of whether it is being created or changed. */
interface ToolDefinition {
  tool_name: string;
  tool_type: ToolType;
  configuration: Configuration | null;
  mcp_server_id: string | null;
  external_tool_connection_id: string | null;
}

export function listBuiltInTools() {
  return BUILT_IN_TOOLS.map((tool) => ({ ...tool, tool_type: 'built_in' as const }));
}

const valueError = (field: string, message: string): ValidationIssue => ({
  location: 'body',
  path: [field],
  rule: 'value_error',
  message: `Value error, ${message}`,
});

function invalid(issues: ValidationIssue[]): AppError {
  return new AppError({ code: 'VALIDATION', message: issues.map(describeIssue).join('; '), issues });
}

/** Each reference id belongs to exactly one tool type. */
function referenceIssues(definition: ToolDefinition): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const rules = [
    ['mcp_server_id', 'mcp_server'],
    ['external_tool_connection_id', 'external_tool'],
  ] as const;
  for (const [field, type] of rules) {
    if (definition.tool_type === type && !definition[field]) {
      issues.push(valueError(field, `${field} is required when tool_type is ${type}`));
    }
    if (definition.tool_type !== type && definition[field]) {
      issues.push(valueError(field, `${field} is only allowed when tool_type is ${type}`));
    }
  }
  return issues;
}

/**
 * Checks a tool against the type rules, the built-in catalog and (when `checkMcpServer`) the
 * agent's MCP servers; answers the configuration to store: a built-in's with its defaults filled in.
 */
async function checkDefinition(
  db: Kysely<DB>,
  agentId: string,
  definition: ToolDefinition,
  options: { checkMcpServer: boolean },
): Promise<Configuration | null> {
  const issues = referenceIssues(definition);
  let configuration = definition.configuration;
  if (definition.tool_type === 'built_in') {
    const tool = findBuiltInTool(definition.tool_name);
    if (!tool) {
      issues.push(valueError('tool_name', `'${definition.tool_name}' is not a built-in tool; see GET /api/v1/tools/built-in`));
    } else {
      const checked = checkBuiltInConfiguration(tool, configuration);
      if (checked.ok) {
        configuration = checked.configuration;
      } else {
        issues.push(...checked.issues);
      }
    }
  }
  const serverId = definition.mcp_server_id;
  if (definition.tool_type === 'mcp_server' && serverId && options.checkMcpServer) {
    if (!(await mcpServerBelongsToAgent(db, agentId, serverId))) {
      issues.push(valueError('mcp_server_id', 'mcp_server_id must name an MCP server of this agent'));
    }
  }
  if (issues.length > 0) {
    throw invalid(issues);
  }
  return configuration;
}

/**
 * Only an org admin decides what reaches the model when an agent answers customers: marking a
 * tool customer-facing, and changing a tool so marked (its creator could otherwise point the mark
 * at another server or tool). Anyone who manages the agent may still disable or delete it.
 */
function requireCustomerFacingRights(
  principal: Principal,
  tool: Pick<AgentToolRow, 'customer_facing'> | null,
  input: Static<typeof UpdateAgentToolSchema>,
): void {
  if (isOrgAdmin(principal)) {
    return;
  }
  const marks = input.customer_facing === true && !(tool && readBoolean(tool.customer_facing));
  const changesMarked =
    tool !== null &&
    readBoolean(tool.customer_facing) &&
    Object.entries(input).some(([field, value]) => value !== undefined && !(field === 'is_enabled' && value === false));
  if (marks || changesMarked) {
    throw AppError.forbidden(`${ACCESS_DENIED}: only an org admin may mark a tool customer_facing or change a tool so marked`);
  }
}

async function requireFreeToolName(db: Kysely<DB>, agentId: string, toolName: string, toolId?: string): Promise<void> {
  const taken = await findAgentToolByName(db, agentId, toolName);
  if (taken && taken.id !== toolId) {
    throw AppError.conflict(`Tool '${toolName}' already exists for this agent`);
  }
}

async function requireTool(db: Kysely<DB>, agentId: string, toolId: string): Promise<AgentToolRow> {
  const tool = await findAgentToolById(db, agentId, toolId);
  if (!tool) {
    throw AppError.notFound('Tool not found');
  }
  return tool;
}

/** Endpoint 14. */
export async function createAgentTool(
  deps: Deps,
  principal: Principal,
  agentId: string,
  input: Static<typeof CreateAgentToolSchema>,
) {
  if (input.agent_id.toLowerCase() !== agentId.toLowerCase()) {
    throw invalid([valueError('agent_id', 'agent_id must equal the agent_id in the path')]);
  }
  const agent = await requireManageableAgent(deps.db, principal, agentId);
  requireCustomerFacingRights(principal, null, { customer_facing: input.customer_facing });
  const definition: ToolDefinition = {
    tool_name: input.tool_name,
    tool_type: input.tool_type,
    configuration: input.configuration ?? null,
    mcp_server_id: input.mcp_server_id ?? null,
    external_tool_connection_id: input.external_tool_connection_id ?? null,
  };
  const configuration = await checkDefinition(deps.db, agent.id, definition, { checkMcpServer: true });
  await requireFreeToolName(deps.db, agent.id, definition.tool_name);
  const at = deps.clock.now().toISOString();
  const id = deps.ids.uuid();
  await insertAgentTool(deps.db, {
    ...definition,
    id,
    organization_id: agent.organization_id,
    agent_id: agent.id,
    configuration: writeJson(configuration),
    is_enabled: input.is_enabled ?? true,
    require_approval: input.require_approval ?? false,
    customer_facing: input.customer_facing ?? false,
    created_at: at,
    updated_at: at,
  });
  return toAgentTool(await requireTool(deps.db, agent.id, id));
}

/** In creation order (created_at, then id): a keyset page. */
/** The agent's enabled tools in creation order, at most `limit` of them: what a run offers the model. */
export async function listEnabledToolsOfAgent(db: Kysely<DB>, agentId: string, limit: number): Promise<AgentToolRow[]> {
  return listAgentTools(db, agentId, { isEnabled: true }, { limit });
}

export async function listToolsOfAgent(
  db: Kysely<DB>,
  principal: Principal,
  agentId: string,
  query: Static<typeof ListAgentToolsQuerySchema>,
) {
  const agent = await requireAgent(db, principal, agentId);
  const limit = query.limit ?? DEFAULT_LIST_LIMIT;
  const after = readListCursor(query, ['instant', 'text']);
  const filter = { toolType: query.tool_type, isEnabled: query.is_enabled };
  const rows = await listAgentTools(db, agent.id, filter, { after, limit: limit + 1 });
  const page = keysetPage(rows, limit, (row) => [row.created_at, row.id]);
  return { items: page.items.map(toAgentTool), nextCursor: page.nextCursor };
}

export async function getAgentTool(db: Kysely<DB>, principal: Principal, agentId: string, toolId: string) {
  const agent = await requireAgent(db, principal, agentId);
  return toAgentTool(await requireTool(db, agent.id, toolId));
}

/**
 * Fields sent replace the stored ones and the result is checked like a new tool. The MCP server
 * is re-checked when the reference changes or the tool is (re-)enabled, so a tool whose server
 * was removed can still be edited while disabled but not switched back on.
 */
export async function updateAgentToolDetails(
  deps: Deps,
  principal: Principal,
  agentId: string,
  toolId: string,
  input: Static<typeof UpdateAgentToolSchema>,
) {
  const agent = await requireManageableAgent(deps.db, principal, agentId);
  const tool = await requireTool(deps.db, agent.id, toolId);
  requireCustomerFacingRights(principal, tool, input);
  const definition: ToolDefinition = {
    tool_name: input.tool_name ?? tool.tool_name,
    tool_type: input.tool_type ?? tool.tool_type,
    configuration: input.configuration !== undefined ? input.configuration : readJson<Configuration>(tool.configuration),
    mcp_server_id: input.mcp_server_id !== undefined ? input.mcp_server_id : tool.mcp_server_id,
    external_tool_connection_id:
      input.external_tool_connection_id !== undefined ? input.external_tool_connection_id : tool.external_tool_connection_id,
  };
  const isEnabled = input.is_enabled ?? readBoolean(tool.is_enabled);
  const referenceChanged = definition.mcp_server_id !== tool.mcp_server_id || definition.tool_type !== tool.tool_type;
  const configuration = await checkDefinition(deps.db, agent.id, definition, { checkMcpServer: referenceChanged || isEnabled });
  if (definition.tool_name !== tool.tool_name) {
    await requireFreeToolName(deps.db, agent.id, definition.tool_name, tool.id);
  }
  await updateAgentTool(deps.db, agent.id, tool.id, {
    ...definition,
    configuration: writeJson(configuration),
    is_enabled: isEnabled,
    ...(input.require_approval !== undefined ? { require_approval: input.require_approval } : {}),
    ...(input.customer_facing !== undefined ? { customer_facing: input.customer_facing } : {}),
    updated_at: deps.clock.now().toISOString(),
  });
  return toAgentTool(await requireTool(deps.db, agent.id, tool.id));
}

export async function deleteAgentToolById(deps: Deps, principal: Principal, agentId: string, toolId: string) {
  const agent = await requireManageableAgent(deps.db, principal, agentId);
  if ((await deleteAgentTool(deps.db, agent.id, toolId)) === 0) {
    throw AppError.notFound('Tool not found');
  }
  return { status: 'success' as const, message: 'Tool deleted successfully' };
}
