import { randomUUID } from 'node:crypto';
import type { AppDeps } from '../../deps.js';
import { createGuardedFetch, type GuardedFetch } from '../../lib/guarded-fetch.js';
import type { RunEvent } from '../../shared/run-events.js';
import { type McpRuntime, mcpRuntimeOf } from '../mcp-servers/mcp-runtime.js';
import { type ModelAccess, modelAccessOf } from '../model-providers/model-client.js';

export type { RunEvent };

type Listener = (event: RunEvent) => void;

/** The events of one run in this process, kept until it ends so a late subscriber misses none. */
class RunChannel {
  readonly events: RunEvent[] = [];
  readonly listeners = new Set<Listener>();
}

const RELEASE_AFTER_MS = 30_000;

/** How long a process vouches for a run it holds (or waits to run) without renewing. */
export const LEASE_MS = 30_000;

/**
 * The agent runtime of one app: its outbound pools, the runs it executes (aborted when the app
 * closes), the events they stream, and the threads whose waiting runs want to hear that a turn
 * ended. Everything here is per process; the database says which process holds which run.
 */
export interface AgentRuntime {
  deps: AppDeps;
  access: ModelAccess;
  mcp: McpRuntime;
  /** External tools' calls: through the outbound guard, long answers cut (then capped for the model). */
  external: GuardedFetch;
  /** This process's name on the leases it takes. */
  owner: string;
  /** Runs executing here, by id; aborting one stops it. */
  active: Map<string, AbortController>;
  /** Work in progress (runs driven here), awaited when the app closes. */
  tasks: Set<Promise<unknown>>;
  closing: boolean;
  publish(runId: string, event: RunEvent): void;
  /** Replays what the run streamed so far, then follows it; answers the unsubscribe. */
  subscribe(runId: string, listener: Listener): () => void;
  /** Starts the run's channel afresh: a paused run continuing streams a new stretch. */
  reopen(runId: string): void;
  /** Forgets a finished run's events (soon). */
  release(runId: string): void;
  /** Resolves when a run of the thread ends here, or after `ms`. */
  turnEnded(threadId: string, ms: number): Promise<void>;
  wakeThread(threadId: string): void;
}

const runtimeOfApp = new WeakMap<AppDeps, AgentRuntime>();

/** The app's one agent runtime, made on first use. */
export function agentRuntimeOf(deps: AppDeps): AgentRuntime {
  let runtime = runtimeOfApp.get(deps);
  if (!runtime) {
    runtime = createAgentRuntime(deps);
    runtimeOfApp.set(deps, runtime);
  }
  return runtime;
}

function createAgentRuntime(deps: AppDeps): AgentRuntime {
  const access = modelAccessOf(deps);
  const channels = new Map<string, RunChannel>();
  const sleepers = new Map<string, Set<() => void>>();
  return {
    deps,
    access,
    mcp: mcpRuntimeOf(deps),
    external: createGuardedFetch(access.policy, { maxResponseBytes: 1024 * 1024, oversizedResponse: 'truncate' }),
    owner: randomUUID(),
    active: new Map(),
    tasks: new Set(),
    closing: false,
    publish(runId, event) {
      let channel = channels.get(runId);
      if (!channel) {
        channel = new RunChannel();
        channels.set(runId, channel);
      }
      channel.events.push(event);
      for (const listener of channel.listeners) {
        listener(event);
      }
    },
    subscribe(runId, listener) {
      let channel = channels.get(runId);
      if (!channel) {
        channel = new RunChannel();
        channels.set(runId, channel);
      }
      for (const event of channel.events) {
        listener(event);
      }
      channel.listeners.add(listener);
      const subscribed = channel;
      return () => subscribed.listeners.delete(listener);
    },
    reopen(runId) {
      channels.set(runId, new RunChannel());
    },
    release(runId) {
      // Kept a little longer: a caller subscribing just after a fast run ended still gets its events.
      const channel = channels.get(runId);
      setTimeout(() => {
        if (channels.get(runId) === channel) {
          channels.delete(runId);
        }
      }, RELEASE_AFTER_MS).unref();
    },
    turnEnded(threadId, ms) {
      return new Promise<void>((resolve) => {
        let set = sleepers.get(threadId);
        if (!set) {
          set = new Set();
          sleepers.set(threadId, set);
        }
        const wake = () => {
          clearTimeout(timer);
          set.delete(wake);
          if (set.size === 0 && sleepers.get(threadId) === set) {
            sleepers.delete(threadId);
          }
          resolve();
        };
        const timer = setTimeout(wake, ms);
        timer.unref();
        set.add(wake);
      });
    },
    wakeThread(threadId) {
      for (const wake of [...(sleepers.get(threadId) ?? [])]) {
        wake();
      }
    },
  };
}

/** Stops the runs of this app: each ends failed, saying the server stopped, and its lease is released. */
export async function closeAgentRuntime(deps: AppDeps): Promise<void> {
  const runtime = runtimeOfApp.get(deps);
  if (!runtime) {
    return;
  }
  runtime.closing = true;
  for (const controller of runtime.active.values()) {
    controller.abort(new Error('The server stopped while the run was going'));
  }
  await Promise.allSettled([...runtime.tasks]);
  await runtime.external.close();
}
