import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { closeServer, listen } from './mcp/authorization-server.js';

/**
 * A language model on loopback speaking the OpenAI chat-completions protocol
 * (`POST /v1/chat/completions`), streamed as Server-Sent Events when the request asks for
 * `stream: true` and as one JSON body otherwise. Each test scripts what it answers, one reply per
 * request in order: text, tool calls (well-formed or with malformed arguments), HTTP errors,
 * garbage, slow or hanging answers; a reply may be a function of the request, to answer with what
 * a tool really returned. Every request is recorded. With nothing scripted it answers 500, so a
 * test that calls the model more often than it meant to fails visibly.
 */

export interface ScriptedToolCall {
  name: string;
  /** An object is sent as its JSON; a string is sent as it is (malformed arguments). */
  arguments: Record<string, unknown> | string;
  id?: string;
}

export type ScriptedReply =
  | {
      kind?: 'answer';
      text?: string;
      toolCalls?: ScriptedToolCall[];
      usage?: { prompt_tokens: number; completion_tokens: number };
      /** Wait this long before the headers. */
      delayMs?: number;
      /** Streamed answers: wait this long between chunks. */
      chunkDelayMs?: number;
    }
  | { kind: 'error'; status: number; message?: string; headers?: Record<string, string> }
  | { kind: 'garbage'; body: string; contentType?: string }
  | { kind: 'hang' };

export interface ModelRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: {
    model: string;
    stream?: boolean;
    messages: { role: string; content: unknown; tool_calls?: unknown[]; tool_call_id?: string }[];
    tools?: { type: string; function: { name: string; description?: string; parameters: unknown } }[];
    temperature?: number;
    max_tokens?: number;
  } & Record<string, unknown>;
}

export interface TestModelServer {
  /** The API root to configure as a provider's base_url (`http://127.0.0.1:<port>/v1`). */
  baseUrl: string;
  requests: ModelRequest[];
  /** Queues replies, answered in order. */
  script(...replies: (ScriptedReply | ((request: ModelRequest) => ScriptedReply))[]): void;
  /** Replies still queued. */
  pending(): number;
  /** The most requests it was answering at once. */
  maxConcurrent(): number;
  reset(): void;
  close(): Promise<void>;
}

const DEFAULT_USAGE = { prompt_tokens: 10, completion_tokens: 5 };

export async function startModelServer(): Promise<TestModelServer> {
  const requests: ModelRequest[] = [];
  let queue: (ScriptedReply | ((request: ModelRequest) => ScriptedReply))[] = [];
  const sockets = new Set<Socket>();
  let counter = 0;
  let inFlight = 0;
  let maxInFlight = 0;

  const server = createServer((request, response) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    response.on('close', () => {
      inFlight--;
    });
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      let body: ModelRequest['body'];
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        sendJson(response, 400, { error: { message: 'request body is not JSON' } });
        return;
      }
      const recorded: ModelRequest = { path: request.url ?? '/', headers: request.headers, body };
      requests.push(recorded);
      if (request.method !== 'POST' || !recorded.path.endsWith('/chat/completions')) {
        sendJson(response, 404, { error: { message: `no route ${request.method} ${recorded.path}` } });
        return;
      }
      const next = queue.shift();
      const reply = typeof next === 'function' ? next(recorded) : next;
      if (!reply) {
        sendJson(response, 500, { error: { message: 'the test scripted no answer for this request' } });
        return;
      }
      counter++;
      void answer(response, reply, body, `chatcmpl-${counter}`);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const port = await listen(server);

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    script: (...replies) => {
      queue.push(...replies);
    },
    pending: () => queue.length,
    maxConcurrent: () => maxInFlight,
    reset: () => {
      queue = [];
      requests.length = 0;
      maxInFlight = 0;
    },
    close: async () => {
      for (const socket of sockets) {
        socket.destroy();
      }
      await closeServer(server);
    },
  };
}

function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function answer(response: ServerResponse, reply: ScriptedReply, body: ModelRequest['body'], id: string): Promise<void> {
  if (reply.kind === 'hang') {
    return;
  }
  if (reply.kind === 'error') {
    // retry-after-ms keeps the SDK's retries of 429 and 5xx fast.
    sendJson(
      response,
      reply.status,
      { error: { message: reply.message ?? `error ${reply.status}`, type: 'test_error' } },
      {
        'retry-after-ms': '5',
        ...reply.headers,
      },
    );
    return;
  }
  if (reply.kind === 'garbage') {
    response.writeHead(200, { 'content-type': reply.contentType ?? 'application/json' });
    response.end(reply.body);
    return;
  }
  if (reply.delayMs) {
    await sleep(reply.delayMs);
  }
  if (response.destroyed) {
    return;
  }
  const usage = reply.usage ?? DEFAULT_USAGE;
  const toolCalls = (reply.toolCalls ?? []).map((call, index) => ({
    id: call.id ?? `call_${id}_${index}`,
    type: 'function' as const,
    function: {
      name: call.name,
      arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
    },
  }));
  const finishReason = toolCalls.length > 0 ? 'tool_calls' : 'stop';
  const created = 1_768_467_600;
  if (!body.stream) {
    sendJson(response, 200, {
      id,
      object: 'chat.completion',
      created,
      model: body.model,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: reply.text ?? null, ...(toolCalls.length ? { tool_calls: toolCalls } : {}) },
          finish_reason: finishReason,
        },
      ],
      usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
    });
    return;
  }
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
    id,
    object: 'chat.completion.chunk',
    created,
    model: body.model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const frames: unknown[] = [chunk({ role: 'assistant', content: '' })];
  for (const piece of (reply.text ?? '').match(/.{1,8}/gs) ?? []) {
    frames.push(chunk({ content: piece }));
  }
  toolCalls.forEach((call, index) => {
    const args = call.function.arguments;
    const half = Math.ceil(args.length / 2);
    frames.push(
      chunk({
        tool_calls: [
          { index, id: call.id, type: 'function', function: { name: call.function.name, arguments: args.slice(0, half) } },
        ],
      }),
    );
    frames.push(chunk({ tool_calls: [{ index, function: { arguments: args.slice(half) } }] }));
  });
  frames.push(chunk({}, finishReason));
  frames.push({
    id,
    object: 'chat.completion.chunk',
    created,
    model: body.model,
    choices: [],
    usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
  });
  for (const frame of frames) {
    if (response.destroyed) {
      return;
    }
    response.write(`data: ${JSON.stringify(frame)}\n\n`);
    if (reply.chunkDelayMs) {
      await sleep(reply.chunkDelayMs);
    }
  }
  response.end('data: [DONE]\n\n');
}
