import { accentColors } from '../shared/colors';
import { asPanelMessage, type LoaderMessage } from '../shared/messages';
import { LAUNCHER_ICONS, LAUNCHER_STYLES } from './launcher-styles';

export type MessengerEvent = 'ready' | 'open' | 'close' | 'unread';

export interface MessengerLook {
  launcherColor?: string | null;
  position?: 'right' | 'left';
}

export interface Messenger {
  open(): void;
  /** `restoreFocus`: put focus back on the launcher (the visitor closed it, or focus was in the widget). */
  close(restoreFocus?: boolean): void;
  identify(token: string): void;
  setLook(look: MessengerLook): void;
  remove(): void;
}

const NAME = 'Support messenger';

/** Styles in the shadow root: adopted where the browser can (a page's CSP may forbid `<style>`), else an element. */
function addStyles(shadow: ShadowRoot): void {
  if ('adoptedStyleSheets' in shadow && typeof CSSStyleSheet === 'function' && 'replaceSync' in CSSStyleSheet.prototype) {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(LAUNCHER_STYLES);
    shadow.adoptedStyleSheets = [sheet];
    return;
  }
  const style = document.createElement('style');
  style.textContent = LAUNCHER_STYLES;
  shadow.appendChild(style);
}

/** The launcher: a real button, named, saying whether the panel is open, with its unread badge. */
function drawLauncher(shadow: ShadowRoot): { root: HTMLDivElement; launcher: HTMLButtonElement; badge: HTMLSpanElement } {
  addStyles(shadow);
  const root = document.createElement('div');
  const launcher = document.createElement('button');
  launcher.type = 'button';
  launcher.className = 'launcher right';
  launcher.setAttribute('aria-expanded', 'false');
  launcher.setAttribute('aria-label', NAME);
  launcher.innerHTML = LAUNCHER_ICONS;
  const badge = document.createElement('span');
  badge.className = 'badge';
  badge.hidden = true;
  badge.setAttribute('aria-hidden', 'true');
  launcher.appendChild(badge);
  root.appendChild(launcher);
  shadow.appendChild(root);
  return { root, launcher, badge };
}

/**
 * The launcher button and, once first opened, the panel's iframe, in a shadow root of their own
 * element at the end of the page's body. Talks to the panel only through the iframe's window, at
 * the server's origin.
 */
export function createMessenger(options: {
  origin: string;
  slug: string;
  emit: (event: MessengerEvent, detail?: number) => void;
}): Messenger {
  const host = document.createElement('switchboard-messenger');
  const shadow = host.attachShadow({ mode: 'open' });
  const { root, launcher, badge } = drawLauncher(shadow);

  let frame: HTMLDivElement | null = null;
  let iframe: HTMLIFrameElement | null = null;
  let panelReady = false;
  let isOpen = false;
  let position: 'right' | 'left' = 'right';
  let pendingIdentify: string | null = null;

  const post = (message: LoaderMessage) => iframe?.contentWindow?.postMessage(message, options.origin);

  const createFrame = () => {
    frame = document.createElement('div');
    frame.className = `frame ${position}`;
    frame.id = 'switchboard-frame';
    frame.hidden = true;
    iframe = document.createElement('iframe');
    iframe.title = NAME;
    iframe.src = `${options.origin}/widget/${encodeURIComponent(options.slug)}/`;
    frame.appendChild(iframe);
    root.insertBefore(frame, launcher);
    launcher.setAttribute('aria-controls', frame.id);
  };

  const showUnread = (count: number) => {
    badge.hidden = count === 0;
    badge.textContent = count > 99 ? '99+' : String(count);
    launcher.setAttribute('aria-label', count === 0 ? NAME : `${NAME}, ${count} unread`);
  };

  const messenger: Messenger = {
    open() {
      if (!frame) {
        createFrame();
      }
      if (isOpen || !frame || !iframe) {
        return;
      }
      isOpen = true;
      frame.hidden = false;
      launcher.setAttribute('aria-expanded', 'true');
      iframe.focus();
      if (panelReady) {
        post({ type: 'switchboard:open' });
      }
      options.emit('open');
    },
    close(restoreFocus = false) {
      if (!isOpen || !frame) {
        return;
      }
      // Focus inside the iframe or on the launcher shows as the host element from the page.
      const focusWasInside = document.activeElement === host;
      isOpen = false;
      frame.hidden = true;
      if (panelReady) {
        post({ type: 'switchboard:close' });
      }
      launcher.setAttribute('aria-expanded', 'false');
      if (restoreFocus || focusWasInside) {
        launcher.focus();
      }
      options.emit('close');
    },
    identify(token) {
      pendingIdentify = token;
      if (panelReady) {
        post({ type: 'switchboard:identify', token });
        pendingIdentify = null;
      }
    },
    setLook(look) {
      const { accent, onAccent } = accentColors(look.launcherColor);
      root.style.setProperty('--sb-accent', accent);
      root.style.setProperty('--sb-on-accent', onAccent);
      position = look.position === 'left' ? 'left' : 'right';
      for (const element of [launcher, frame]) {
        element?.classList.remove('left', 'right');
        element?.classList.add(position);
      }
    },
    remove() {
      window.removeEventListener('message', onMessage);
      host.remove();
    },
  };

  function onMessage(event: MessageEvent): void {
    if (!iframe || event.source !== iframe.contentWindow || event.origin !== options.origin) {
      return;
    }
    const message = asPanelMessage(event.data);
    if (message?.type === 'switchboard:ready') {
      panelReady = true;
      if (pendingIdentify) {
        messenger.identify(pendingIdentify);
      }
      if (isOpen) {
        post({ type: 'switchboard:open' });
      }
    } else if (message?.type === 'switchboard:close') {
      messenger.close(true);
    } else if (message?.type === 'switchboard:unread') {
      showUnread(message.count);
      options.emit('unread', message.count);
    }
  }

  launcher.addEventListener('click', () => (isOpen ? messenger.close(true) : messenger.open()));
  shadow.addEventListener('keydown', (event) => {
    if ((event as KeyboardEvent).key === 'Escape' && isOpen) {
      messenger.close(true);
    }
  });
  window.addEventListener('message', onMessage);
  messenger.setLook({});
  document.body.appendChild(host);
  return messenger;
}
