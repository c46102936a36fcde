/** One Server-Sent Event: its name (`message` when the frame names none), its data and its id. */
export interface ServerSentEvent {
  event: string;
  data: string;
  id: string | null;
}

/**
 * Reads a `text/event-stream` body as it arrives, chunk by chunk, as the HTML standard's event
 * stream interpretation does: lines end with LF, CR LF or CR (a CR at a chunk's end waits for the
 * next chunk), `:` starts a comment, `data` lines of one event join with LF, a blank line
 * dispatches, an event without data is dropped, and an event the stream ends before its blank
 * line never happened. (EventSource cannot POST, so the panel reads the stream with fetch.)
 */
export function createSseParser(onEvent: (event: ServerSentEvent) => void) {
  let buffer = '';
  let started = false;
  let eventName = '';
  let data: string[] = [];
  let lastId: string | null = null;

  const dispatch = () => {
    if (data.length > 0) {
      onEvent({ event: eventName || 'message', data: data.join('\n'), id: lastId });
    }
    eventName = '';
    data = [];
  };

  const readLine = (line: string) => {
    if (line === '') {
      dispatch();
      return;
    }
    if (line.startsWith(':')) {
      return;
    }
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) {
      value = value.slice(1);
    }
    if (field === 'event') {
      eventName = value;
    } else if (field === 'data') {
      data.push(value);
    } else if (field === 'id' && !value.includes('\0')) {
      lastId = value;
    }
    // `retry` and unknown fields: nothing to do for a single POST.
  };

  /** Reads the complete lines of the buffer; `final`: the stream has ended, so a last CR ends its line. */
  const drain = (final: boolean) => {
    let start = 0;
    for (let index = 0; index < buffer.length; index++) {
      const char = buffer[index];
      if (char !== '\n' && char !== '\r') {
        continue;
      }
      if (char === '\r' && index === buffer.length - 1 && !final) {
        break;
      }
      readLine(buffer.slice(start, index));
      if (char === '\r' && buffer[index + 1] === '\n') {
        index++;
      }
      start = index + 1;
    }
    buffer = buffer.slice(start);
  };

  return {
    /** Feeds decoded text (decode with `TextDecoder(…, {stream: true})`, so a character split between chunks stays whole). */
    push(text: string): void {
      const withoutMark = !started && text.startsWith('\uFEFF') ? text.slice(1) : text;
      started ||= text !== '';
      buffer += withoutMark;
      drain(false);
    },
    /** The stream ended: reads a last line; an event not closed by a blank line is dropped. */
    end(): void {
      drain(true);
      buffer = '';
      eventName = '';
      data = [];
    },
  };
}
