import { RUN_EVENT_NAMES, type RunEvent } from '../../../../src/shared/run-events';
import { studio, studioMessageOf, unwrapStudio } from '../../api/agent-studio-client';
import { ApiError } from '../../api/client';

export type { RunEvent };

const KNOWN = new Set<string>(RUN_EVENT_NAMES);
const STREAM = { Accept: 'text/event-stream' } as const;

/** One Server-Sent Events frame (`event:` and `data:` lines) as a run event, or null for anything else. */
export function parseFrame(frame: string): RunEvent | null {
  let event = 'message';
  const data: string[] = [];
  for (const line of frame.split('\n')) {
    if (line.startsWith('event:')) {
      event = line.slice(6).trim();
    } else if (line.startsWith('data:')) {
      data.push(line.slice(5).trimStart());
    }
  }
  if (!KNOWN.has(event) || data.length === 0) {
    return null;
  }
  try {
    return { event, data: JSON.parse(data.join('\n')) } as RunEvent;
  } catch {
    return null;
  }
}

/** Hands each event of the stream to `onEvent` as it arrives, until the server ends it. */
async function readEvents(body: ReadableStream<Uint8Array>, onEvent: (event: RunEvent) => void): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) {
      break;
    }
    buffered += decoder.decode(value, { stream: true }).replace(/\r\n/g, '\n');
    let end = buffered.indexOf('\n\n');
    while (end >= 0) {
      const event = parseFrame(buffered.slice(0, end));
      buffered = buffered.slice(end + 2);
      if (event) {
        onEvent(event);
      }
      end = buffered.indexOf('\n\n');
    }
  }
}

/**
 * A streamed answer: its events, or the API's refusal as an `ApiError`. False when the API answered
 * without a run to stream (a message to an inactive agent, or one without a model, is only stored).
 */
async function follow(
  call: Promise<{ error?: unknown; response: Response }>,
  onEvent: (event: RunEvent) => void,
): Promise<boolean> {
  let answer: Awaited<typeof call>;
  try {
    answer = await call;
  } catch (error) {
    throw new ApiError(0, `The server could not be reached (${error instanceof Error ? error.message : String(error)})`);
  }
  if (answer.error !== undefined || !answer.response.ok) {
    throw new ApiError(answer.response.status, studioMessageOf(answer.error, answer.response));
  }
  const streamed = (answer.response.headers.get('content-type') ?? '').startsWith('text/event-stream');
  // Asked with `parseAs: 'stream'`, the body is left unread for us.
  if (streamed && answer.response.body) {
    await readEvents(answer.response.body, onEvent);
  }
  return streamed;
}

export const createPlaygroundThread = (agentId: string) =>
  unwrapStudio(
    studio.POST('/api/v1/chat/{agent_id}/threads', {
      params: { path: { agent_id: agentId } },
      body: { title: 'Playground' },
    }),
  );

/** Sends the user's message and streams the run it starts. */
export const sendAndStream = (agentId: string, threadId: string, content: string, onEvent: (event: RunEvent) => void) =>
  follow(
    studio.POST('/api/v1/chat/{agent_id}/threads/{thread_id}/messages', {
      params: { path: { agent_id: agentId, thread_id: threadId } },
      body: { role: 'user', content },
      headers: STREAM,
      parseAs: 'stream',
    }),
    onEvent,
  );

/** Approves or rejects the calls a run paused for, and streams the rest of the run. */
export const decideAndStream = (agentId: string, runId: string, approved: boolean, onEvent: (event: RunEvent) => void) =>
  follow(
    studio.POST(approved ? '/api/v1/agents/{agent_id}/runs/{run_id}/approve' : '/api/v1/agents/{agent_id}/runs/{run_id}/reject', {
      params: { path: { agent_id: agentId, run_id: runId } },
      body: {},
      headers: STREAM,
      parseAs: 'stream',
    }),
    onEvent,
  );

/** The run as stored: its error is what the playground shows when it failed. */
export const runOf = (agentId: string, runId: string) =>
  unwrapStudio(studio.GET('/api/v1/agents/{agent_id}/runs/{run_id}', { params: { path: { agent_id: agentId, run_id: runId } } }));
