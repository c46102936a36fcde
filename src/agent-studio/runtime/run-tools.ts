import type { Tool, ToolSet } from 'ai';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/database.js';
import { readBoolean, readJson } from '../../db/dialect.js';
import type { AppDeps } from '../../deps.js';
import type { FetchLike, OutboundPolicy } from '../../lib/guarded-fetch.js';
import type { DiscoveredTool } from '../mcp-servers/connect.js';
import { findServerOfAgent, type McpRuntime } from '../mcp-servers/mcp-runtime.js';
import { callMcpServerTool } from '../mcp-servers/mcp-tool-call.js';
import type { AiSdk } from '../model-providers/model-client.js';
import { listEnabledToolsOfAgent } from '../tools/agent-tool.service.js';
import type { ToolType } from '../tools/agent-tool.table.js';
import type { AgentRunTrigger } from './agent-run.table.js';
import { visitorHandoffTool } from './built-in/visitor-handoff.tool.js';
import { builtInRuntimeTool } from './built-in-runtime-tools.js';
import { externalRuntimeTool } from './external-tool.js';
import { type RunPrincipal, startedByOutsideText } from './run-principal.js';
import type { RuntimeTool, ToolCallContext } from './runtime-tool.js';

// ajv-formats is CommonJS with a default export.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/** What goes back to the model from one tool call, at most; the rest is cut with a note saying so. */
export const MAX_TOOL_OUTPUT_BYTES = 32 * 1024;
const MAX_AGENT_TOOLS = 200;

/** A tool as a run offers it: the runtime tool, whether a person approves each call first, and what it is. */
export interface OfferedTool {
  tool: RuntimeTool;
  requireApproval: boolean;
  source: ToolType;
  /** An admin allowed it in runs acting for a customer. */
  customerFacing: boolean;
}

/** One call as the run records it (the chat message's `tool_calls` shape, plus the model's call id). */
export interface ToolCallRecord {
  tool_call_id: string;
  tool_name: string;
  arguments: Record<string, unknown> | null;
  result: unknown;
  error: string | null;
  start_time: string | null;
  end_time: string | null;
}

export interface RunToolHooks {
  now(): string;
  started(record: ToolCallRecord): void;
  ended(record: ToolCallRecord): void;
  /** The record of a call, made on first sight. */
  recordOf(toolCallId: string, toolName: string, input: unknown): ToolCallRecord;
}

/** Names the model may call: OpenAI allows `[a-zA-Z0-9_-]{1,64}`; a clash gets a number. */
function modelNames(tools: RuntimeTool[]): RuntimeTool[] {
  const taken = new Set<string>();
  return tools.map((tool) => {
    const base = tool.name.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 60) || 'tool';
    let name = base;
    for (let n = 2; taken.has(name); n++) {
      name = `${base}_${n}`;
    }
    taken.add(name);
    return { ...tool, name };
  });
}

/** What decides a run's tools besides the agent's own: what started it and whom it acts for. */
export interface RunToolPolicy {
  trigger: AgentRunTrigger;
  principal: RunPrincipal;
}

/**
 * The tools of a run: the agent's enabled tools, each as a `RuntimeTool`, as the run's policy
 * allows them (see `toolsOfRun`). A built-in tool with no implementation yet is not offered; an
 * MCP server tool offers the server's tools found at its last connect (`configuration.allowed_tools`
 * narrows them); an external tool its one HTTP call.
 */
export async function loadOfferedTools(
  db: Kysely<DB>,
  agentId: string,
  outbound: { mcp: McpRuntime; policy: OutboundPolicy; externalFetch: FetchLike },
  policy: RunToolPolicy,
): Promise<OfferedTool[]> {
  const rows = await listEnabledToolsOfAgent(db, agentId, MAX_AGENT_TOOLS);
  const offered: OfferedTool[] = [];
  for (const row of rows) {
    const configuration = readJson<Record<string, unknown>>(row.configuration);
    const entry = {
      requireApproval: readBoolean(row.require_approval),
      source: row.tool_type,
      customerFacing: readBoolean(row.customer_facing),
    };
    if (row.tool_type === 'built_in') {
      const tool = builtInRuntimeTool(row.tool_name, configuration ?? {});
      if (tool) {
        offered.push({ ...entry, tool });
      }
    } else if (row.tool_type === 'external_tool') {
      offered.push({
        ...entry,
        tool: externalRuntimeTool(row.tool_name, configuration, outbound.policy, outbound.externalFetch),
      });
    } else if (row.mcp_server_id) {
      for (const tool of await mcpServerTools(db, outbound.mcp, agentId, row.mcp_server_id, configuration)) {
        offered.push({ ...entry, tool });
      }
    }
  }
  const forRun = toolsOfRun(offered, policy);
  const named = modelNames(forRun.map((entry) => entry.tool));
  return forRun.map((entry, index) => ({ ...entry, tool: named[index] ?? entry.tool }));
}

/**
 * Built-in tools that write to a ticket. A run on a ticket is not offered them: its job writes the
 * agent's answer itself, as a note or a reply as the team's mode says, or hands the ticket off.
 */
const TICKET_WRITING_TOOLS = new Set([
  'reply_to_customer',
  'add_internal_note',
  'create_ticket_comment',
  'handoff_to_human',
  'create_ticket',
]);
export const KNOWLEDGE_BASE_TOOLS = new Set(['search_knowledge_base', 'knowledge_base_search']);

/**
 * Built-in tools a run acting for a customer is offered without an admin's mark: they narrow what
 * they read to the customer's reach themselves (the ticket answered, the requester's own tickets
 * and contact, published articles anyone may read).
 */
const CUSTOMER_SAFE_TOOLS = new Set(['get_ticket', 'ticket_lookup', 'lookup_contact', ...KNOWLEDGE_BASE_TOOLS]);

/** Built-in tools a messenger visitor's run is offered: it reads articles anyone may read and may ask for a person. */
const VISITOR_SAFE_TOOLS = new Set([...KNOWLEDGE_BASE_TOOLS, 'handoff_to_human']);

/** The knowledge-base search, offered to runs answering outside text even when the agent has none. */
function withKnowledgeBase(kept: OfferedTool[]): OfferedTool[] {
  const search = builtInRuntimeTool('search_knowledge_base', {});
  if (!search || kept.some((entry) => KNOWLEDGE_BASE_TOOLS.has(entry.tool.name))) {
    return kept;
  }
  return [...kept, { tool: search, requireApproval: false, source: 'built_in', customerFacing: false }];
}

/**
 * A run's tools by its policy:
 * - a run on a ticket is not offered the tools writing to tickets (its job writes the answer
 *   itself) and always has the knowledge-base search;
 * - a run acting for a customer keeps only the customer-safe built-ins, and whatever an admin
 *   marked `customer_facing` (ticket search, MCP and external tools);
 * - a messenger visitor's run has the knowledge-base search and `handoff_to_human` in its
 *   visitor form (it only asks for a person: the messenger makes the ticket), plus the MCP and
 *   external tools an admin marked `customer_facing` that need no approval (nobody is there to
 *   approve); never a tool that reads or writes tickets or contacts;
 * - a run that outside text started but that acts for a user (a draft for agents) keeps its
 *   tools, but every call of one that sends anything outside (external tools, MCP tools not
 *   marked `customer_facing`) waits for a person's approval.
 */
export function toolsOfRun(offered: OfferedTool[], policy: RunToolPolicy): OfferedTool[] {
  let kept = offered;
  if (policy.trigger === 'ticket' || policy.trigger === 'messenger') {
    kept = withKnowledgeBase(kept.filter((entry) => !TICKET_WRITING_TOOLS.has(entry.tool.name)));
  }
  if (!startedByOutsideText(policy.trigger)) {
    return kept;
  }
  if (policy.principal.type === 'visitor') {
    const handoff = { tool: visitorHandoffTool(), requireApproval: false, source: 'built_in' as const, customerFacing: false };
    return [...kept, handoff].filter((entry) =>
      entry.source === 'built_in' ? VISITOR_SAFE_TOOLS.has(entry.tool.name) : entry.customerFacing && !entry.requireApproval,
    );
  }
  if (policy.principal.type === 'customer_contact') {
    return kept.filter(
      (entry) => entry.customerFacing || (entry.source === 'built_in' && CUSTOMER_SAFE_TOOLS.has(entry.tool.name)),
    );
  }
  return kept.map((entry) => {
    const sendsOutside = entry.source === 'external_tool' || (entry.source === 'mcp_server' && !entry.customerFacing);
    return sendsOutside ? { ...entry, requireApproval: true } : entry;
  });
}

/** Whether a tool call was a knowledge-base search that found at least one published article. */
export function foundInKnowledgeBase(call: { tool_name: string; result: unknown; error: string | null }): boolean {
  if (!KNOWLEDGE_BASE_TOOLS.has(call.tool_name) || call.error) {
    return false;
  }
  const result = call.result as { results?: unknown } | null;
  return Array.isArray(result?.results) && result.results.length > 0;
}

async function mcpServerTools(
  db: Kysely<DB>,
  mcp: McpRuntime,
  agentId: string,
  serverId: string,
  configuration: Record<string, unknown> | null,
): Promise<RuntimeTool[]> {
  const server = await findServerOfAgent(db, agentId, serverId);
  if (!server || !readBoolean(server.is_enabled)) {
    return [];
  }
  const allowed = Array.isArray(configuration?.allowed_tools) ? new Set(configuration.allowed_tools as unknown[]) : null;
  const discovered = readJson<DiscoveredTool[]>(server.discovered_tools) ?? [];
  return discovered
    .filter((tool) => !allowed || allowed.has(tool.name))
    .map((tool) => ({
      name: tool.name,
      description: tool.description ?? tool.title ?? `The ${tool.name} tool of the MCP server ${server.name}`,
      parameters: tool.input_schema,
      async execute(args: unknown, context: ToolCallContext) {
        // Read again: the connect may have changed its transport or credentials since the run began.
        const current = (await findServerOfAgent(db, agentId, serverId)) ?? server;
        return callMcpServerTool(mcp, current, tool.name, (args ?? {}) as Record<string, unknown>, context.signal);
      },
    }));
}

let ajv: Ajv | undefined;

/** Arguments checked against the tool's JSON Schema before it runs; a schema Ajv cannot use refuses every call. */
function validatorOf(
  tool: RuntimeTool,
): (value: unknown) => { success: true; value: unknown } | { success: false; error: Error } {
  let validate: ValidateFunction | undefined;
  let problem: string | undefined;
  try {
    ajv ??= addFormats(new Ajv({ allErrors: true, strict: false, validateSchema: false }));
    validate = ajv.compile(tool.parameters);
  } catch (error) {
    problem = error instanceof Error ? error.message : String(error);
  }
  return (value) => {
    if (!validate) {
      return { success: false, error: new Error(`the tool's argument schema cannot be used: ${problem}`) };
    }
    if (validate(value)) {
      return { success: true, value };
    }
    const errors = (validate.errors ?? []).map((error) => `${error.instancePath || '(arguments)'} ${error.message}`).join('; ');
    return { success: false, error: new Error(`arguments do not match the tool's schema: ${errors}`) };
  };
}

/** Whatever a tool returned, as the model may see it: at most `MAX_TOOL_OUTPUT_BYTES`. */
export function capToolOutput(result: unknown): unknown {
  const text = typeof result === 'string' ? result : (JSON.stringify(result) ?? 'null');
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes <= MAX_TOOL_OUTPUT_BYTES) {
    return result === undefined ? null : result;
  }
  const start = Buffer.from(text, 'utf8')
    .subarray(0, MAX_TOOL_OUTPUT_BYTES)
    .toString('utf8')
    .replace(/\uFFFD+$/, '');
  return `${start}\n[Output truncated: the tool returned ${bytes} bytes; only the first ${MAX_TOOL_OUTPUT_BYTES} are shown.]`;
}

/** Resolves with `work`, or rejects once `signal` aborts, even if the tool ignores the signal. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/**
 * The AI SDK's tool set of a run: each call is checked against its schema, recorded with its
 * times, stopped at `toolTimeoutMs` (or with the run), and its output capped before the model
 * sees it; a tool needing approval pauses the run instead of running.
 */
export function toSdkTools(
  sdk: AiSdk,
  offered: OfferedTool[],
  options: {
    deps: AppDeps;
    context: Omit<ToolCallContext, 'signal' | 'deps'>;
    runSignal: AbortSignal;
    toolTimeoutMs: number;
    hooks: RunToolHooks;
  },
): ToolSet {
  const tools: ToolSet = {};
  for (const { tool: runtimeTool, requireApproval } of offered) {
    const definition: Tool<unknown, unknown> = sdk.ai.tool({
      description: runtimeTool.description,
      inputSchema: sdk.ai.jsonSchema<unknown>(runtimeTool.parameters as Parameters<typeof sdk.ai.jsonSchema>[0], {
        validate: validatorOf(runtimeTool),
      }),
      needsApproval: requireApproval,
      execute: async (input: unknown, { toolCallId }: { toolCallId: string }) => {
        const record = options.hooks.recordOf(toolCallId, runtimeTool.name, input);
        record.start_time = options.hooks.now();
        options.hooks.started(record);
        const timeout = AbortSignal.timeout(options.toolTimeoutMs);
        const signal = AbortSignal.any([options.runSignal, timeout]);
        try {
          const result = capToolOutput(
            await untilAborted(runtimeTool.execute(input, { ...options.context, deps: options.deps, signal }), signal),
          );
          record.result = result;
          return result;
        } catch (error) {
          record.error =
            timeout.aborted && !options.runSignal.aborted
              ? `Tool '${runtimeTool.name}' timed out after ${options.toolTimeoutMs / 1000} s`
              : error instanceof Error
                ? error.message
                : String(error);
          throw new Error(record.error);
        } finally {
          record.end_time = options.hooks.now();
          options.hooks.ended(record);
        }
      },
    });
    tools[runtimeTool.name] = definition;
  }
  return tools;
}
