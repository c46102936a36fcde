import type { ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';

/**
 * Server-Sent Events (text/event-stream) on a Fastify reply: the reply is taken over (`hijack`),
 * so Fastify neither serializes nor ends it; its `onResponse` hooks still run once the stream
 * ends, so the request's log line is written then, with the stream's duration.
 */

/** How long a client waits before reconnecting after the stream drops (the `retry` field). */
const RECONNECT_AFTER_MS = 2_000;

/** Sends the status line and headers at once, so the client knows it is connected. */
export function startEventStream(reply: FastifyReply): ServerResponse {
  reply.hijack();
  const response = reply.raw;
  const headers: Record<string, string> = {};
  // Headers set by hooks before the handler (the request id, rate-limit headers) still belong here.
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined) {
      headers[name] = String(value);
    }
  }
  response.writeHead(200, {
    ...headers,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    // nginx and others buffer responses by default, which would hold events back.
    'x-accel-buffering': 'no',
  });
  response.write(`retry: ${RECONNECT_AFTER_MS}\n\n`);
  return response;
}

/** One event. `data` must be a single line (JSON is). */
export function eventFrame(id: string, event: string, data: string): string {
  return `id: ${id}\nevent: ${event}\ndata: ${data}\n\n`;
}

/** A comment line, which clients ignore: keeps proxies from closing an idle stream. */
export const HEARTBEAT_FRAME = ': heartbeat\n\n';

/**
 * Writes `chunk` (a buffer shared by many streams is written without a copy) unless the client is so far behind that `maxBacklogBytes` are still waiting for
 * it: then the connection is dropped (the client resumes with Last-Event-ID) rather than buffered
 * without bound. Answers whether the text was written.
 */
export function writeUnlessBehind(response: ServerResponse, chunk: string | Buffer, maxBacklogBytes: number): boolean {
  if (response.destroyed || response.writableEnded) {
    return false;
  }
  if (response.writableLength > maxBacklogBytes) {
    response.destroy();
    return false;
  }
  response.write(chunk);
  return true;
}
