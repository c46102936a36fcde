/** A piece of a search highlight: plain text, marked when it matched. */
export interface HighlightPart {
  text: string;
  marked: boolean;
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };

function decodeEntities(html: string): string {
  return html.replace(/&(amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity] ?? entity);
}

/**
 * The search's highlight HTML (escaped text and `<mark>` tags, nothing else) as text parts, so the
 * command bar renders them as React text and never inserts HTML.
 */
export function highlightParts(html: string): HighlightPart[] {
  const parts: HighlightPart[] = [];
  const pattern = /<mark>([\s\S]*?)<\/mark>/g;
  let last = 0;
  for (let match = pattern.exec(html); match !== null; match = pattern.exec(html)) {
    if (match.index > last) {
      parts.push({ text: decodeEntities(html.slice(last, match.index)), marked: false });
    }
    parts.push({ text: decodeEntities(match[1] ?? ''), marked: true });
    last = match.index + match[0].length;
  }
  if (last < html.length) {
    parts.push({ text: decodeEntities(html.slice(last)), marked: false });
  }
  return parts;
}
