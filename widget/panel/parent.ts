import { asLoaderMessage, type LoaderMessage, type PanelMessage } from '../shared/messages';

/** Whether the panel runs in the loader's iframe (not opened on its own). */
export const isFramed = window.parent !== window;

/** Tells the loader something harmless (target `*`: the panel does not know the host's origin). */
export function tellLoader(message: PanelMessage): void {
  if (isFramed) {
    window.parent.postMessage(message, '*');
  }
}

/** Listens to the loader only: messages from any other window are ignored. Returns the unsubscriber. */
export function listenToLoader(handle: (message: LoaderMessage) => void): () => void {
  const listener = (event: MessageEvent) => {
    if (!isFramed || event.source !== window.parent) {
      return;
    }
    const message = asLoaderMessage(event.data);
    if (message) {
      handle(message);
    }
  };
  window.addEventListener('message', listener);
  return () => window.removeEventListener('message', listener);
}
