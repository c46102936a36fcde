/** Elements whose content is never article text: dropped whole from a paste. */
const DROPPED = 'script, style, link, meta, iframe, object, embed, noscript, template, form, svg, math';

/** Addresses a link or image may keep: the web, mail, and the console's own paths. */
const SAFE_ADDRESS = /^(https?:|mailto:|\/(?!\/)|#)/i;

/**
 * Pasted HTML (Google Docs, Word, a web page) cleaned before the editor reads it: parsed in an
 * inert document (DOMParser: nothing loads, nothing runs), without scripts, styles, event
 * handlers or script addresses. The editor's schema then keeps only what an article holds; this
 * makes sure nothing in the paste is ever handed to a live document on the way.
 */
export function cleanPastedHtml(html: string): string {
  const document = new DOMParser().parseFromString(html, 'text/html');
  for (const element of document.body.querySelectorAll(DROPPED)) {
    element.remove();
  }
  keepInlineEmphasis(document);
  for (const element of document.body.querySelectorAll('*')) {
    for (const attribute of [...element.attributes]) {
      const name = attribute.name.toLowerCase();
      const isAddress = name === 'href' || name === 'src';
      if (
        name.startsWith('on') ||
        name === 'style' ||
        name === 'srcset' ||
        (isAddress && !SAFE_ADDRESS.test(attribute.value.trim()))
      ) {
        element.removeAttribute(attribute.name);
      }
    }
  }
  return document.body.innerHTML;
}

const styleOf = (element: Element) => (element.getAttribute('style') ?? '').toLowerCase().replace(/\s+/g, '');

/**
 * What word processors say with styles, said with elements before the styles go: Google Docs wraps
 * a whole copy in `<b style="font-weight:normal">` (not bold at all) and marks bold and italic
 * words as styled spans.
 */
function keepInlineEmphasis(document: Document): void {
  for (const element of document.body.querySelectorAll('b, strong')) {
    if (/font-weight:(normal|400)/.test(styleOf(element))) {
      element.replaceWith(...element.childNodes);
    }
  }
  for (const span of document.body.querySelectorAll('span')) {
    const style = styleOf(span);
    let wrapped: Element = span;
    if (/font-weight:(bold|[6-9]00)/.test(style)) {
      const strong = document.createElement('strong');
      strong.append(...wrapped.childNodes);
      wrapped.append(strong);
      wrapped = strong;
    }
    if (/font-style:italic/.test(style)) {
      const em = document.createElement('em');
      em.append(...wrapped.childNodes);
      wrapped.append(em);
    }
  }
}
