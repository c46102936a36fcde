import DOMPurify from 'dompurify';
import { Marked } from 'marked';

/**
 * The one way user content becomes HTML in the console: markdown through `marked`, then every
 * HTML string through DOMPurify (comments' HTML is sanitised by the API already; this is the
 * browser's own guard). Scripts, event handlers, `javascript:` URLs, forms, frames and styles go;
 * formatting, links and same-origin images stay. Links open in a new tab without an opener.
 * Images from other sites are not loaded (the CSP would refuse them, and they would tell the
 * sender the message was read): their alt text shows instead.
 */
const purifier = DOMPurify(window);

const FORBID_TAGS = [
  'style',
  'form',
  'input',
  'button',
  'textarea',
  'select',
  'iframe',
  'frame',
  'object',
  'embed',
  'svg',
  'math',
];

/** Same origin (a path, not `//host`), a pasted `data:image/…`, or a `blob:` preview. */
function isLocalImage(src: string): boolean {
  if (/^data:image\/(png|jpe?g|gif|webp);/i.test(src) || src.startsWith('blob:')) {
    return true;
  }
  try {
    const url = new URL(src, window.location.href);
    return url.origin === window.location.origin && (url.protocol === 'http:' || url.protocol === 'https:');
  } catch {
    return false;
  }
}

purifier.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A' && node.hasAttribute('href')) {
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer nofollow');
  }
  if (node.tagName === 'IMG') {
    const src = node.getAttribute('src') ?? '';
    if (!isLocalImage(src)) {
      // An image without a source shows its alt text; the node stays (the sanitiser is walking the tree).
      node.removeAttribute('src');
      node.setAttribute('alt', node.getAttribute('alt') || 'An image from another site, not loaded');
    } else {
      node.setAttribute('loading', 'lazy');
    }
  }
});

const marked = new Marked({ gfm: true, breaks: true, async: false });

/** HTML safe to put in the page: what DOMPurify keeps of `html`. */
export function sanitizeHtml(html: string): string {
  return purifier.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS,
    FORBID_ATTR: ['style', 'srcset', 'formaction'],
    ALLOW_DATA_ATTR: false,
  });
}

/** Markdown (raw HTML in it included) rendered and sanitised. */
export function markdownToSafeHtml(markdown: string): string {
  return sanitizeHtml(marked.parse(markdown, { async: false }));
}

/** Sanitised user content: `html` as given, or `markdown` rendered. Never raw. */
export function Markdown({
  html,
  markdown,
  className = '',
  label,
}: {
  html?: string;
  markdown?: string;
  className?: string;
  /** An accessible name when the content is a region of its own (a preview). */
  label?: string;
}) {
  const safe = html !== undefined ? sanitizeHtml(html) : markdownToSafeHtml(markdown ?? '');
  return (
    <div
      className={`prose-comment ${className}`}
      {...(label ? { role: 'region', 'aria-label': label } : {})}
      // Sanitised just above by DOMPurify: the only HTML the console inserts.
      // biome-ignore lint/security/noDangerouslySetInnerHtml: the string is DOMPurify's output
      dangerouslySetInnerHTML={{ __html: safe }}
    />
  );
}
