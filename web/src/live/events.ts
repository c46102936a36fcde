import { useEffect, useRef, useSyncExternalStore } from 'react';
import { EVENT_TYPES } from '../../../src/shared/event-types';
import type { PlatformEvent } from '../api/types';

export type { PlatformEvent };
export type PlatformEventType = PlatformEvent['type'];

/** A chat ticket's visitor coming, going and typing: the ticket page shows it; lists ignore it (they follow `ticket.*`). */
const CHAT_VISITOR_TYPES: readonly PlatformEventType[] = ['chat.visitor_presence', 'chat.visitor_typing'];

/**
 * Every type the console reacts to, taken from the API's list so a type can only be one the
 * stream sends: what happens to tickets and their comments, their SLA warnings and breaches, new
 * contacts and notes, and a chat visitor's presence, a requestor's satisfaction rating. The stream
 * sends each as its SSE event name.
 */
const WATCHED_TYPES: readonly PlatformEventType[] = EVENT_TYPES.filter(
  (type) =>
    type.startsWith('ticket.') ||
    type.startsWith('comment.') ||
    type.startsWith('sla.') ||
    type === 'contact.created' ||
    type === 'note.created' ||
    type === 'satisfaction.rated' ||
    CHAT_VISITOR_TYPES.includes(type),
);

type Listener = (event: PlatformEvent) => void;
export type StreamState = 'connecting' | 'live' | 'offline';

const listeners = new Set<Listener>();
const resetListeners = new Set<() => void>();
const stateListeners = new Set<() => void>();
let source: EventSource | null = null;
let state: StreamState = 'offline';

function setState(next: StreamState) {
  state = next;
  for (const listener of stateListeners) {
    listener();
  }
}

/**
 * One `GET /v1/events/stream` per tab, opened while something listens. The browser's EventSource
 * reconnects by itself and resumes with `Last-Event-ID`, so no event is missed across a blip; a
 * `reset` (the log no longer holds where it resumed) tells listeners to reload what they show.
 */
function open() {
  if (source) {
    return;
  }
  setState('connecting');
  source = new EventSource('/v1/events/stream', { withCredentials: true });
  source.addEventListener('open', () => setState('live'));
  source.addEventListener('error', () => setState(source?.readyState === EventSource.CLOSED ? 'offline' : 'connecting'));
  source.addEventListener('reset', () => {
    for (const listener of resetListeners) {
      listener();
    }
  });
  for (const type of WATCHED_TYPES) {
    source.addEventListener(type, (message) => {
      const event = JSON.parse((message as MessageEvent<string>).data) as PlatformEvent;
      for (const listener of listeners) {
        listener(event);
      }
    });
  }
}

function closeWhenUnused() {
  if (listeners.size === 0 && resetListeners.size === 0 && source) {
    source.close();
    source = null;
    setState('offline');
  }
}

/** Listens to the organization's live events (as the signed-in user may see them) until the returned function is called. */
export function subscribeToEvents(listener: Listener, onReset?: () => void): () => void {
  listeners.add(listener);
  if (onReset) {
    resetListeners.add(onReset);
  }
  open();
  return () => {
    listeners.delete(listener);
    if (onReset) {
      resetListeners.delete(onReset);
    }
    closeWhenUnused();
  };
}

/** Calls `onEvent` for every live event while the component is mounted; the latest callback is used without resubscribing. */
export function useLiveEvents(onEvent: Listener, onReset?: () => void): void {
  const latest = useRef({ onEvent, onReset });
  latest.current = { onEvent, onReset };
  useEffect(
    () =>
      subscribeToEvents(
        (event) => latest.current.onEvent(event),
        () => latest.current.onReset?.(),
      ),
    [],
  );
}

/** Whether the live stream is connected, for the indicator in the top bar. */
export function useStreamState(): StreamState {
  return useSyncExternalStore(
    (onChange) => {
      stateListeners.add(onChange);
      return () => stateListeners.delete(onChange);
    },
    () => state,
  );
}
