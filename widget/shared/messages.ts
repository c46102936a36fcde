/**
 * What the loader (on the host page) and the panel (in its iframe) say to each other through
 * `window.postMessage`, as agreed for issue 34. The loader posts only to the server's origin; the
 * panel posts to its parent with target `*`, so it sends nothing a stranger could use: no token,
 * no visitor, only that it is ready, wants to close, or how many replies are unread.
 */
export type LoaderMessage =
  | { type: 'switchboard:open' }
  // The panel was hidden (by the launcher, the host's `Switchboard('close')` or the panel's own request): answers arriving now are unread.
  | { type: 'switchboard:close' }
  | { type: 'switchboard:identify'; token: string };

export type PanelMessage =
  | { type: 'switchboard:ready' }
  | { type: 'switchboard:close' }
  | { type: 'switchboard:unread'; count: number };

function typeOf(data: unknown): unknown {
  return typeof data === 'object' && data !== null ? (data as { type?: unknown }).type : undefined;
}

/** A message from the loader, checked field by field (anything else is ignored, never trusted). */
export function asLoaderMessage(data: unknown): LoaderMessage | null {
  const type = typeOf(data);
  if (type === 'switchboard:open' || type === 'switchboard:close') {
    return { type };
  }
  const token = (data as { token?: unknown } | null)?.token;
  if (type === 'switchboard:identify' && typeof token === 'string' && token !== '') {
    return { type, token };
  }
  return null;
}

/** A message from the panel, checked field by field. */
export function asPanelMessage(data: unknown): PanelMessage | null {
  const type = typeOf(data);
  if (type === 'switchboard:ready' || type === 'switchboard:close') {
    return { type };
  }
  const count = (data as { count?: unknown } | null)?.count;
  if (type === 'switchboard:unread' && typeof count === 'number' && Number.isInteger(count) && count >= 0) {
    return { type, count };
  }
  return null;
}
