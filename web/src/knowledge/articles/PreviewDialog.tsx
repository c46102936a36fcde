import { Dialog } from '../../ui/Dialog';

const escapeText = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** The public article page's typography, for the preview (the site's own sheet is served under /hc/). */
const PREVIEW_STYLE = `
body { font: 16px/1.6 system-ui, sans-serif; margin: 0; padding: 1.5rem; color: #18181b; background: #fff; }
article { max-width: 42rem; margin: 0 auto; }
h1 { font-size: 1.75rem; line-height: 1.2; }
img { max-width: 100%; height: auto; }
pre { background: #f4f4f5; padding: .75rem; border-radius: .375rem; overflow-x: auto; }
code { font-family: ui-monospace, monospace; font-size: .9em; }
table { border-collapse: collapse; width: 100%; }
th, td { border: 1px solid #d4d4d8; padding: .375rem .5rem; text-align: left; vertical-align: top; }
th p, td p { margin: 0; }
.callout { border-left: 4px solid #2563eb; background: #eff6ff; padding: .5rem 1rem; border-radius: .25rem; margin: 1rem 0; }
.callout-warning { border-left-color: #d97706; background: #fffbeb; }
`;

/**
 * The saved draft as readers would see it: the API's sanitised HTML in a sandboxed frame, where
 * nothing runs (no scripts, no forms, no popups).
 */
export function PreviewDialog({
  open,
  onOpenChange,
  title,
  html,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  html: string;
}) {
  const document = `<!doctype html><html lang="en"><head><meta charset="utf-8"><base href="${escapeText(window.location.origin)}/"><style>${PREVIEW_STYLE}</style></head><body><article><h1>${escapeText(title)}</h1>${html}</article></body></html>`;
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={`Preview: ${title}`} className="max-w-3xl">
      <div className="p-4 pt-2">
        <iframe
          title="Preview of the public page"
          // Same origin, so uploaded images load with the session; no scripts, forms or popups.
          sandbox="allow-same-origin"
          srcDoc={document}
          className="h-[60vh] w-full rounded-md border border-zinc-200 bg-white dark:border-zinc-700"
        />
      </div>
    </Dialog>
  );
}
