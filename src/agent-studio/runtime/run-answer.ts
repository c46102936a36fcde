import type { FastifyReply, FastifyRequest } from 'fastify';
import { eventFrame, startEventStream } from '../../http/sse.js';
import type { AgentRuntime } from './agent-runtime.js';

/** Whether the caller asked for the run as Server-Sent Events. */
export function wantsEventStream(request: FastifyRequest): boolean {
  return (request.headers.accept ?? '').includes('text/event-stream');
}

/**
 * Streams a run's events (`run`, `text_delta`, `tool_call_start`, `tool_call_end`,
 * `approval_required`, `message`, `usage`, `done`) as Server-Sent Events until it ends or pauses.
 * A client that goes away only stops the stream: the run goes on.
 */
export function streamRun(runtime: AgentRuntime, reply: FastifyReply, runId: string): void {
  const response = startEventStream(reply);
  let sequence = 0;
  let ended = false;
  let unsubscribe: (() => void) | undefined;
  const end = () => {
    ended = true;
    unsubscribe?.();
    if (!response.writableEnded) {
      response.end();
    }
  };
  response.on('close', end);
  unsubscribe = runtime.subscribe(runId, (event) => {
    if (ended || response.destroyed) {
      return;
    }
    response.write(eventFrame(String(++sequence), event.event, JSON.stringify(event.data)));
    if (event.event === 'done') {
      // After the subscription returns: the replay may be what ends it.
      setImmediate(end);
    }
  });
  if (ended) {
    unsubscribe();
  }
}
