import type { ModelMessage, TextStreamPart, ToolSet } from 'ai';
import type { AgentRow } from '../agents/agent.repository.js';
import {
  type AiSdk,
  defaultEndpoint,
  describeModelError,
  languageModelOf,
  loadAiSdk,
  type ModelEndpoint,
} from '../model-providers/model-client.js';
import { endpointOfOrganizationProvider } from '../model-providers/model-provider.service.js';
import type { AgentRunRow } from './agent-run.repository.js';
import type { AgentRuntime } from './agent-runtime.js';
import { type AgentSettings, SAFETY_PROMPT } from './agent-settings.js';
import { principalOfRun } from './run-principal.js';
import { loadOfferedTools, type ToolCallRecord, toSdkTools } from './run-tools.js';
import { type BudgetedRun, monthStart, reserveTokens } from './token-budget.js';

/** A tool call waiting for a person's decision. */
export interface PendingApproval {
  approval_id: string;
  tool_call_id: string;
  tool_name: string;
  arguments: unknown;
}

/** What one stretch of a run (its start, or its continuation after an approval) came to. */
export interface SegmentOutcome {
  status: 'succeeded' | 'failed' | 'rejected' | 'awaiting_approval';
  text: string;
  toolCalls: ToolCallRecord[];
  steps: number;
  inputTokens: number;
  outputTokens: number;
  error: string | null;
  pending: PendingApproval[] | null;
  /** The model messages to continue from, for a paused run. */
  conversation: ModelMessage[] | null;
  endpoint: ModelEndpoint | null;
  model: string | null;
}

export interface SegmentInput {
  runtime: AgentRuntime;
  run: AgentRunRow;
  agent: AgentRow;
  settings: AgentSettings;
  messages: ModelMessage[];
  /** Aborts with the run's timeout or the app's shutdown; its reason is the run's error. */
  signal: AbortSignal;
  /** Extra prompt text for this run (a ticket run's situation), after the agent's instructions. */
  instructions?: string;
}

export type ModelChoice = { ok: true; endpoint: ModelEndpoint; model: string } | { ok: false; error: string };

/** The agent's provider (or the server default) and model, or why there is none. */
export async function chooseModel(runtime: AgentRuntime, agent: AgentRow, settings: AgentSettings): Promise<ModelChoice> {
  let endpoint: ModelEndpoint | null;
  if (settings.modelProviderId) {
    endpoint = await endpointOfOrganizationProvider(
      runtime.deps.db,
      runtime.access,
      agent.organization_id,
      settings.modelProviderId,
    );
    if (!endpoint) {
      return {
        ok: false,
        error: 'The model provider in the agent’s configuration no longer exists; set configuration.model_provider_id to another',
      };
    }
  } else {
    endpoint = defaultEndpoint(runtime.deps.config);
  }
  if (!endpoint) {
    return {
      ok: false,
      error: 'The agent has no model: set configuration.model_provider_id to a model provider, or LLM_BASE_URL on the server',
    };
  }
  return { ok: true, endpoint, model: settings.model ?? endpoint.defaultModel };
}

/** Whether a chat message to the agent starts a run: it is active and has a model to run on. */
export function agentRuns(runtime: AgentRuntime, agent: AgentRow, settings: AgentSettings): boolean {
  return agent.status === 'active' && (settings.modelProviderId !== null || defaultEndpoint(runtime.deps.config) !== null);
}

const failedBeforeStart = (error: string, toolCalls: ToolCallRecord[] = []): SegmentOutcome => ({
  status: 'failed',
  text: '',
  toolCalls,
  steps: 0,
  inputTokens: 0,
  outputTokens: 0,
  error,
  pending: null,
  conversation: null,
  endpoint: null,
  model: null,
});

function systemPrompt(agent: AgentRow, settings: AgentSettings, extra: string | undefined): string {
  const parts = [SAFETY_PROMPT, `Your name is ${agent.name}.${agent.description ? ` ${agent.description}` : ''}`];
  if (settings.systemInstructions) {
    parts.push(`Your instructions:\n${settings.systemInstructions}`);
  }
  if (extra) {
    parts.push(extra);
  }
  return parts.join('\n\n');
}

/**
 * Runs the model loop of one stretch of a run: the model, its tool calls, until it answers, a
 * tool needs approval, the steps or the budget run out, the provider fails or the run is stopped.
 * Streams what happens through the runtime's channel; never throws for any of those.
 */
export async function executeSegment(input: SegmentInput): Promise<SegmentOutcome> {
  const { runtime, run, agent, settings } = input;
  const choice = await chooseModel(runtime, agent, settings);
  if (!choice.ok) {
    return failedBeforeStart(choice.error);
  }
  const budget = settings.monthlyTokenBudget === null ? null : new SegmentBudget(runtime, run, settings.monthlyTokenBudget);
  const refused = budget ? await budget.start() : null;
  if (refused) {
    return failedBeforeStart(refused);
  }
  const sdk = await loadAiSdk();
  const state = new SegmentState(runtime, run.id, () => runtime.deps.clock.now().toISOString());
  const principal = principalOfRun(run);
  let tools: ToolSet;
  try {
    const offered = await loadOfferedTools(
      runtime.deps.db,
      agent.id,
      {
        mcp: runtime.mcp,
        policy: runtime.access.policy,
        externalFetch: runtime.external.fetch,
      },
      { trigger: run.trigger, principal },
    );
    tools = toSdkTools(sdk, offered, {
      deps: runtime.deps,
      context: {
        organizationId: run.organization_id,
        actingUserId: run.acting_user_id,
        principal,
        agentId: agent.id,
        runId: run.id,
        threadId: run.thread_id,
        ticketId: run.ticket_id,
      },
      runSignal: input.signal,
      toolTimeoutMs: settings.toolTimeoutMs,
      hooks: state.hooks,
    });
  } catch (error) {
    runtime.deps.log.error({ err: error, runId: run.id }, 'agent run: tools could not be loaded');
    return failedBeforeStart('The agent’s tools could not be loaded');
  }
  const outcome = await streamSegment(sdk, input, choice, tools, state, budget);
  return { ...outcome, endpoint: choice.endpoint, model: choice.model };
}

/** The part of the agent's monthly budget one stretch holds, taken before it starts and grown as it spends. */
class SegmentBudget {
  private held = 0;
  private readonly periodStart: string;
  private readonly budgeted: BudgetedRun;

  constructor(
    private readonly runtime: AgentRuntime,
    run: AgentRunRow,
    readonly limit: number,
  ) {
    this.periodStart = monthStart(runtime.deps.clock.now());
    this.budgeted = { runId: run.id, agentId: run.agent_id, organizationId: run.organization_id };
  }

  /** Null when the first reservation was granted; else why the stretch cannot start. */
  async start(): Promise<string | null> {
    const reservation = await reserveTokens(this.runtime.deps, this.budgeted, this.limit, this.periodStart);
    if (reservation.granted > 0) {
      this.held += reservation.granted;
      return null;
    }
    const usage = 'used' in reservation ? reservation : { used: this.limit, reserved: 0 };
    const heldByOthers = usage.reserved > 0 ? ` and ${usage.reserved} held by runs in progress` : '';
    return `The agent’s monthly token budget (${this.limit} tokens) is used up: ${usage.used} tokens used this month${heldByOthers}`;
  }

  /** After a step: whether the stretch may go on, reserving more when it spent what it held. */
  async allows(spent: number): Promise<boolean> {
    if (spent < this.held) {
      return true;
    }
    const more = await reserveTokens(this.runtime.deps, this.budgeted, this.limit, this.periodStart);
    this.held += more.granted;
    return more.granted > 0;
  }
}

/** The records, text and usage of a stretch, gathered from the stream and the tool wrappers. */
class SegmentState {
  text = '';
  stepHasText = false;
  steps = 0;
  inputTokens = 0;
  outputTokens = 0;
  lastFinishReason: string | undefined;
  error: unknown;
  readonly records = new Map<string, ToolCallRecord>();
  readonly pending: PendingApproval[] = [];
  readonly hooks;

  constructor(
    private readonly runtime: AgentRuntime,
    private readonly runId: string,
    now: () => string,
  ) {
    this.hooks = {
      now,
      recordOf: (toolCallId: string, toolName: string, args: unknown) => this.recordOf(toolCallId, toolName, args),
      started: (record: ToolCallRecord) =>
        this.runtime.publish(this.runId, {
          event: 'tool_call_start',
          data: {
            tool_call_id: record.tool_call_id,
            tool_name: record.tool_name,
            arguments: record.arguments,
            start_time: record.start_time,
          },
        }),
      ended: (record: ToolCallRecord) =>
        this.runtime.publish(this.runId, {
          event: 'tool_call_end',
          data: {
            tool_call_id: record.tool_call_id,
            tool_name: record.tool_name,
            result: record.result,
            error: record.error,
            end_time: record.end_time,
          },
        }),
    };
  }

  recordOf(toolCallId: string, toolName: string, args: unknown): ToolCallRecord {
    let record = this.records.get(toolCallId);
    if (!record) {
      record = {
        tool_call_id: toolCallId,
        tool_name: toolName,
        arguments: args !== null && typeof args === 'object' && !Array.isArray(args) ? (args as Record<string, unknown>) : null,
        result: null,
        error: null,
        start_time: null,
        end_time: null,
      };
      this.records.set(toolCallId, record);
    }
    return record;
  }

  get usedTokens(): number {
    return this.inputTokens + this.outputTokens;
  }
}

async function streamSegment(
  sdk: AiSdk,
  input: SegmentInput,
  choice: Extract<ModelChoice, { ok: true }>,
  tools: ToolSet,
  state: SegmentState,
  budget: SegmentBudget | null,
): Promise<Omit<SegmentOutcome, 'endpoint' | 'model'>> {
  const { runtime, run, settings } = input;
  let overBudget = false;
  const result = sdk.ai.streamText({
    model: await languageModelOf(choice.endpoint, choice.model),
    system: systemPrompt(input.agent, settings, input.instructions),
    messages: input.messages,
    tools,
    stopWhen: [
      sdk.ai.stepCountIs(settings.maxSteps),
      async () => {
        overBudget = budget !== null && !(await budget.allows(state.usedTokens));
        return overBudget;
      },
    ],
    temperature: settings.temperature,
    maxOutputTokens: settings.maxOutputTokens,
    abortSignal: input.signal,
    // 429, 5xx and dropped connections are retried (twice, honouring retry-after); 4xx are not.
    maxRetries: 2,
    onError: () => undefined,
  });
  try {
    for await (const part of result.fullStream) {
      handlePart(sdk, runtime, run.id, part, state);
    }
  } catch (error) {
    state.error ??= error;
  }
  const toolCalls = [...state.records.values()];
  const base = {
    text: state.text,
    toolCalls,
    steps: state.steps,
    inputTokens: state.inputTokens,
    outputTokens: state.outputTokens,
  };
  if (input.signal.aborted) {
    const reason = input.signal.reason;
    return {
      ...base,
      status: 'failed',
      error: reason instanceof Error ? reason.message : 'The run was stopped',
      pending: null,
      conversation: null,
    };
  }
  if (state.error !== undefined) {
    return { ...base, status: 'failed', error: describeModelError(sdk, state.error), pending: null, conversation: null };
  }
  if (state.pending.length > 0) {
    const response = await result.response;
    return {
      ...base,
      status: 'awaiting_approval',
      error: null,
      pending: state.pending,
      conversation: [...input.messages, ...response.messages],
    };
  }
  if (state.lastFinishReason === 'tool-calls') {
    const error = overBudget
      ? `The agent’s monthly token budget (${budget?.limit} tokens) ran out during the run`
      : `The agent used all ${settings.maxSteps} steps (max_steps) without a final answer`;
    return { ...base, status: 'failed', error, pending: null, conversation: null };
  }
  return { ...base, status: 'succeeded', error: null, pending: null, conversation: null };
}

function handlePart(sdk: AiSdk, runtime: AgentRuntime, runId: string, part: TextStreamPart<ToolSet>, state: SegmentState): void {
  switch (part.type) {
    case 'start-step':
      state.stepHasText = false;
      return;
    case 'text-delta': {
      if (!part.text) {
        return;
      }
      // Steps' texts are kept apart by a blank line, in the stream as in the stored message.
      const delta = !state.stepHasText && state.text.length > 0 ? `\n\n${part.text}` : part.text;
      state.stepHasText = true;
      state.text += delta;
      runtime.publish(runId, { event: 'text_delta', data: { delta } });
      return;
    }
    case 'tool-call':
      state.recordOf(part.toolCallId, part.toolName, part.input);
      return;
    case 'tool-error': {
      const record = state.recordOf(part.toolCallId, part.toolName, part.input);
      if (record.end_time === null) {
        // Never executed: the model's call itself was wrong.
        record.error = describeToolCallError(sdk, part.toolName, part.error);
        record.start_time = state.hooks.now();
        record.end_time = record.start_time;
        state.hooks.started(record);
        state.hooks.ended(record);
      }
      return;
    }
    case 'tool-approval-request':
      state.pending.push({
        approval_id: part.approvalId,
        tool_call_id: part.toolCall.toolCallId,
        tool_name: part.toolCall.toolName,
        arguments: part.toolCall.input,
      });
      return;
    case 'tool-output-denied': {
      const record = state.recordOf(part.toolCallId, part.toolName, null);
      record.error = 'Rejected: a person declined this call';
      record.end_time = state.hooks.now();
      state.hooks.ended(record);
      return;
    }
    case 'finish-step':
      state.steps++;
      state.inputTokens += part.usage.inputTokens ?? 0;
      state.outputTokens += part.usage.outputTokens ?? 0;
      state.lastFinishReason = part.finishReason;
      return;
    case 'error':
      state.error ??= part.error;
      return;
    default:
      return;
  }
}

function describeToolCallError(sdk: AiSdk, toolName: string, error: unknown): string {
  if (sdk.ai.NoSuchToolError.isInstance(error)) {
    return `The model called a tool that does not exist: ${toolName}`;
  }
  const message = error instanceof Error ? error.message : String(error);
  const invalidInput =
    sdk.ai.InvalidToolInputError.isInstance(error) || message.startsWith(`Invalid input for tool ${toolName}: `);
  if (invalidInput) {
    // The innermost cause says what was wrong (JSON syntax, or our schema check), without the SDK's wrapping.
    let cause: unknown = error;
    while (cause instanceof Error && cause.cause instanceof Error) {
      cause = cause.cause;
    }
    const detail = (
      cause instanceof Error && cause !== error ? cause.message : message.slice(`Invalid input for tool ${toolName}: `.length)
    )
      .replace(/\s+/g, ' ')
      .trim();
    return `The model called ${toolName} with malformed arguments: ${detail.slice(0, 500)}`;
  }
  return message;
}
