/**
 * The launcher's and the panel frame's styles, inside the shadow root: `:host { all: initial }`
 * resets what the host element would inherit from the page, and nothing here can match the page's
 * elements. Colours come in as custom properties set on the host (`--sb-accent`, `--sb-on-accent`).
 */
export const LAUNCHER_STYLES = `
:host { all: initial; }
.launcher {
  position: fixed; bottom: 20px; z-index: 2147483000;
  width: 56px; height: 56px; margin: 0; padding: 0; border: 0; border-radius: 50%;
  display: flex; align-items: center; justify-content: center;
  background: var(--sb-accent); color: var(--sb-on-accent);
  box-shadow: 0 4px 16px rgba(0, 0, 0, .25); cursor: pointer;
  font: 600 12px/1 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
}
.launcher:focus-visible { outline: 3px solid var(--sb-accent); outline-offset: 3px; }
.launcher svg { width: 28px; height: 28px; fill: none; stroke: currentColor; stroke-width: 2; stroke-linecap: round; stroke-linejoin: round; }
.launcher .close-icon { display: none; }
.launcher[aria-expanded="true"] .chat-icon { display: none; }
.launcher[aria-expanded="true"] .close-icon { display: block; }
.badge {
  position: absolute; top: -4px; right: -4px; min-width: 20px; height: 20px; padding: 0 5px; box-sizing: border-box;
  border-radius: 10px; background: #c62828; color: #fff; border: 2px solid #fff;
  display: flex; align-items: center; justify-content: center; font-size: 11px;
}
.badge[hidden] { display: none; }
.frame {
  position: fixed; bottom: 88px; z-index: 2147483000;
  width: 380px; height: min(640px, calc(100vh - 108px));
  border-radius: 14px; overflow: hidden; background: #fff;
  box-shadow: 0 8px 40px rgba(0, 0, 0, .3);
}
.frame[hidden] { display: none; }
.frame iframe { display: block; width: 100%; height: 100%; border: 0; }
.right { right: 20px; }
.left { left: 20px; }
@media (max-width: 639px) {
  .frame { inset: 0; width: 100%; height: 100%; border-radius: 0; }
  /* The panel covers the screen and has its own close button. */
  .launcher[aria-expanded="true"] { display: none; }
}
@media (prefers-reduced-motion: no-preference) {
  .launcher { transition: transform .15s ease; }
  .launcher:hover { transform: scale(1.06); }
}
`;

const SVG = 'xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" aria-hidden="true" focusable="false"';

/** A speech bubble while closed, a cross while open; the button's name says which. */
export const LAUNCHER_ICONS =
  `<svg class="chat-icon" ${SVG}><path d="M21 15a2 2 0 0 1-2 2H7l-4 4V5a2 2 0 0 1 2-2h14a2 2 0 0 1 2 2z"/></svg>` +
  `<svg class="close-icon" ${SVG}><path d="M18 6 6 18M6 6l12 12"/></svg>`;
