/**
 * `/widget.js`: the messenger's loader, a classic script a host page embeds with
 *
 * ```html
 * <script>
 *   window.Switchboard = window.Switchboard || function () { (Switchboard.q = Switchboard.q || []).push(arguments); };
 * </script>
 * <script src="https://support.example.com/widget.js" data-help-center="acme" async></script>
 * ```
 *
 * The first line is optional: it lets the page call `Switchboard('open')`, `Switchboard('identify',
 * { token })` or `Switchboard('on', 'unread', handler)` before this script has arrived; the calls wait
 * in `Switchboard.q` and run, in order, once it has. Events: `ready` (the launcher is drawn with the
 * help center's settings), `open`, `close`, `unread` (the count of unread replies).
 */
import { createMessenger, type Messenger, type MessengerEvent, type MessengerLook } from './messenger';

type Handler = (detail?: number) => void;

interface SwitchboardApi {
  (command: string, ...args: unknown[]): void;
  q?: ArrayLike<unknown>[];
  loaded?: boolean;
}

declare global {
  interface Window {
    Switchboard?: SwitchboardApi;
  }
}

const EVENTS: readonly MessengerEvent[] = ['ready', 'open', 'close', 'unread'];

/** The `<script>` that loaded this file: `currentScript` while it runs, else the one naming a help center. */
function ownScript(): HTMLScriptElement | null {
  const current = document.currentScript;
  if (current instanceof HTMLScriptElement && current.dataset.helpCenter) {
    return current;
  }
  return document.querySelector<HTMLScriptElement>('script[data-help-center][src]');
}

interface WidgetConfig {
  widget?: MessengerLook;
}

/** The help center's look from the server; null when its messenger is unknown, off, or refuses this page's origin. */
async function readConfig(origin: string, slug: string): Promise<MessengerLook | null> {
  try {
    const response = await fetch(`${origin}/widget/${encodeURIComponent(slug)}/api/config`, { credentials: 'omit' });
    if (!response.ok) {
      return null;
    }
    return ((await response.json()) as WidgetConfig).widget ?? {};
  } catch {
    // A refused CORS check looks like this too: the widget's allowedOrigins do not name this page.
    console.warn(`Switchboard: the messenger of "${slug}" could not be reached from ${location.origin}.`);
    return null;
  }
}

function start(script: HTMLScriptElement): void {
  const slug = script.dataset.helpCenter ?? '';
  const origin = new URL(script.src, location.href).origin;
  const queued = Array.from(window.Switchboard?.q ?? []);
  const handlers = new Map<MessengerEvent, Set<Handler>>(EVENTS.map((event) => [event, new Set()]));
  const waiting: unknown[][] = [];
  let messenger: Messenger | null = null;
  let gone = false;
  let ready = false;

  const emit = (event: MessengerEvent, detail?: number) => {
    for (const handler of handlers.get(event) ?? []) {
      try {
        handler(detail);
      } catch (error) {
        console.error(error);
      }
    }
  };

  const run = (args: unknown[]) => {
    const [command, first, second] = args;
    if (command === 'on') {
      const listeners = handlers.get(first as MessengerEvent);
      if (listeners && typeof second === 'function') {
        listeners.add(second as Handler);
        // A handler added after the launcher is drawn still hears that it is ready.
        if (first === 'ready' && ready) {
          queueMicrotask(() => (second as Handler)());
        }
      }
    } else if (gone) {
      return;
    } else if (!messenger) {
      waiting.push(args);
    } else if (command === 'open') {
      messenger.open();
    } else if (command === 'close') {
      messenger.close();
    } else if (command === 'identify') {
      const token = (first as { token?: unknown } | null)?.token;
      if (typeof token === 'string' && token !== '') {
        messenger.identify(token);
      }
    } else {
      console.warn(`Switchboard: unknown command ${String(command)}`);
    }
  };

  const api: SwitchboardApi = (...args: unknown[]) => run(args);
  api.loaded = true;
  window.Switchboard = api;
  for (const args of queued) {
    run(Array.from(args));
  }

  const draw = () => {
    messenger = createMessenger({ origin, slug, emit });
    void readConfig(origin, slug).then((look) => {
      if (!look) {
        gone = true;
        messenger?.remove();
        return;
      }
      messenger?.setLook(look);
      ready = true;
      emit('ready');
    });
    for (const args of waiting.splice(0)) {
      run(args);
    }
  };
  if (document.body) {
    draw();
  } else {
    document.addEventListener('DOMContentLoaded', draw, { once: true });
  }
}

const script = ownScript();
if (!window.Switchboard?.loaded) {
  if (script?.dataset.helpCenter) {
    start(script);
  } else {
    console.warn('Switchboard: the widget script needs a data-help-center attribute.');
  }
}
