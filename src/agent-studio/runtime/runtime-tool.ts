import type { AppDeps } from '../../deps.js';
import type { RunPrincipal } from './run-principal.js';

/**
 * What a tool is told when the model calls it during a run. Built-in tools act with the
 * permissions of `actingUserId`, never more, narrowed to the customer's reach when the run acts
 * for a customer (`principal`); every tool stops when `signal` aborts (the per-tool or per-run
 * timeout, or the process shutting down).
 */
export interface ToolCallContext {
  deps: AppDeps;
  organizationId: string;
  /** The platform user whose permissions the agent acts with. */
  actingUserId: string;
  /** Whom the run acts for: the acting user, or the customer whose words started it. */
  principal: RunPrincipal;
  agentId: string;
  runId: string;
  /** The chat thread of a chat run; null for a run on a ticket with no thread. */
  threadId: string | null;
  /** The ticket a ticket run works on; null for a chat run. */
  ticketId: string | null;
  signal: AbortSignal;
}

/** One tool as the runtime offers it to the model: built-in, MCP or external, all alike. */
export interface RuntimeTool {
  /** The name the model calls it by (an agent tool's `tool_name`). */
  name: string;
  description: string;
  /** JSON Schema of the arguments: shown to the model, and checked before `execute`. */
  parameters: Record<string, unknown>;
  /** Resolves to a JSON-serialisable result, or throws an Error whose message the run reports. */
  execute(args: unknown, context: ToolCallContext): Promise<unknown>;
}
