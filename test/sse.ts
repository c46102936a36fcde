import { type IncomingHttpHeaders, request } from 'node:http';
import { createParser, type EventSourceMessage } from 'eventsource-parser';

/** An event-stream client, reading as a browser's EventSource or an integration would. */
export interface SseClient {
  status: number;
  headers: IncomingHttpHeaders;
  /** The JSON answer when the status is not 200 (nothing is streamed then). */
  body?: unknown;
  /** Every event received so far, in order. */
  events: EventSourceMessage[];
  /** Every comment line received so far (heartbeats). */
  comments: string[];
  /** Resolves once the stream has ended, by the server or by `close`. */
  ended: Promise<void>;
  /** Waits until `predicate` holds (checked at each event and comment, and at the end). */
  until(predicate: (client: SseClient) => boolean, label?: string, timeoutMs?: number): Promise<void>;
  /** The events of the log, without the stream's own `ready` and `reset`. */
  logEvents(): EventSourceMessage[];
  close(): void;
}

/**
 * Opens `url` over a connection of its own (no keep-alive pool: `fetch` opens a spare connection
 * after an aborted one, which would hold the server's close until the test times out).
 */
export function openSse(url: string, headers: Record<string, string> = {}): Promise<SseClient> {
  return new Promise((resolve, reject) => {
    const waiters = new Set<() => void>();
    const wake = () => {
      for (const waiter of [...waiters]) {
        waiter();
      }
    };
    const outgoing = request(url, { agent: false, headers: { accept: 'text/event-stream', ...headers } }, (response) => {
      let markEnded: () => void = () => undefined;
      const client: SseClient = {
        status: response.statusCode ?? 0,
        headers: response.headers,
        events: [],
        comments: [],
        ended: new Promise<void>((done) => {
          markEnded = done;
        }),
        until(predicate, label = 'the expected events', timeoutMs = 10_000) {
          return new Promise((resolveWait, rejectWait) => {
            const check = () => {
              if (predicate(client)) {
                waiters.delete(check);
                clearTimeout(timer);
                resolveWait();
              }
            };
            const timer = setTimeout(() => {
              waiters.delete(check);
              const got = JSON.stringify(client.events.map((event) => [event.id, event.event]));
              rejectWait(new Error(`timed out waiting for ${label}; got ${got}`));
            }, timeoutMs);
            waiters.add(check);
            check();
          });
        },
        logEvents: () => client.events.filter((event) => event.event !== 'ready' && event.event !== 'reset'),
        close: () => outgoing.destroy(),
      };
      const parser = createParser({
        onEvent: (event) => {
          client.events.push(event);
          wake();
        },
        onComment: (comment) => {
          client.comments.push(comment);
          wake();
        },
      });
      const chunks: string[] = [];
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (client.status === 200 ? parser.feed(chunk) : chunks.push(chunk)));
      response.on('close', () => {
        markEnded();
        wake();
      });
      if (client.status === 200) {
        resolve(client);
        return;
      }
      response.on('end', () => {
        client.body = chunks.length > 0 ? JSON.parse(chunks.join('')) : undefined;
        resolve(client);
      });
    });
    // Once the stream is open, an error (the one `close` causes among them) only ends it.
    outgoing.on('error', reject);
    outgoing.end();
  });
}
