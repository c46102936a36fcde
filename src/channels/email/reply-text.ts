/**
 * What a customer's reply adds, without the conversation it quotes or their signature: the shown
 * text of an inbound reply (the whole message stays in `email_messages.raw`). Mail clients mark
 * quotes in a few ways, all handled here by their shape, in the languages customers write most:
 *
 * - Gmail, Apple Mail, Thunderbird: an attribution line, `On <date>, <name> wrote:` (Gmail wraps a
 *   long one onto a second line), then `> ` lines; in HTML `div.gmail_quote`, `div.moz-cite-prefix`,
 *   `blockquote[type=cite]`.
 * - Outlook: `-----Original Message-----`, or a header block (`From:` then `Sent:`/`Date:` and
 *   `To:`/`Subject:`), often under a line of underscores; in HTML `#appendonsend`, `#divRplyFwdMsg`
 *   or the grey top border of the header block.
 * - Signatures: after an RFC 3676 `-- ` line, and a trailing "Sent from my iPhone".
 *
 * Only what follows the first such mark goes: an answer written between quoted lines (inline
 * replies) keeps its quotes, since the quotes are then part of the answer.
 */

// Polish `napisał` with its ł escaped, so that the bundle stays Latin-1 (scripts/bundle-server.ts).
const ATTRIBUTION =
  /^\s*(on|am|le|el|il|op|em|w dniu|den|på)\b.{0,400}\b(wrote|writes|schrieb|a écrit|escribió|ha scritto|schreef|escreveu|napisa\u0142|skrev)\s*:\s*$/i;
// German Gmail puts the verb before the name: "Am Do., 15. Jan. 2026 um 09:00 Uhr schrieb Support <s@acme.test>:".
const ATTRIBUTION_VERB_FIRST = /^\s*(am|el|le|il|op)\b.{0,200}\b(schrieb|escribió|a écrit|ha scritto|schreef)\b.{0,300}:\s*$/i;
const ORIGINAL_MESSAGE =
  /^\s*-{2,}\s*(original message|ursprüngliche nachricht|message d'origine|mensaje original|messaggio originale)\s*-{2,}\s*$/i;
const FORWARDED = /^\s*-{3,}\s*(forwarded message|weitergeleitete nachricht|message transféré)\s*-{3,}\s*$/i;
const UNDERSCORES = /^\s*_{10,}\s*$/;
const HEADER_FROM = /^\s*\*?(from|von|de|van|da|od|från)\s*:\*?\s+\S/i;
const HEADER_DATE = /^\s*\*?(sent|date|gesendet|datum|envoyé|enviado|inviato|verzonden|data|skickat)\s*:\*?\s/i;
const HEADER_TO = /^\s*\*?(to|an|à|para|a|aan|do|till|subject|betreff|objet|asunto|oggetto|onderwerp|temat|ämne)\s*:\*?\s/i;
const SIGNATURE_DELIMITER = /^-- ?$/;
const MOBILE_SIGNATURE =
  /^\s*(sent from my \S.*|sent from (mail|outlook|yahoo mail) for \S.*|get outlook for \S.*|envoyé de mon \S.*|von meinem \S.* gesendet|enviado desde mi \S.*|inviato da \S.*)\s*$/i;

/** Whether the lines from `index` on are a header block of a quoted message (Outlook). */
function isHeaderBlock(lines: readonly string[], index: number): boolean {
  if (!HEADER_FROM.test(lines[index] ?? '')) {
    return false;
  }
  const next = lines.slice(index + 1, index + 6);
  return next.some((line) => HEADER_DATE.test(line)) && next.some((line) => HEADER_TO.test(line));
}

/** Whether the quoted original starts at line `index`. */
function startsQuote(lines: readonly string[], index: number): boolean {
  const line = lines[index] ?? '';
  const next = lines[index + 1] ?? '';
  const joined = `${line} ${next}`;
  if (ATTRIBUTION.test(line) || ATTRIBUTION_VERB_FIRST.test(line)) {
    return true;
  }
  // Gmail wraps a long attribution: "On …, Name <address>" then "wrote:" on the next line.
  if (/^\s*(on|am|le|el)\b/i.test(line) && (ATTRIBUTION.test(joined) || ATTRIBUTION_VERB_FIRST.test(joined))) {
    return true;
  }
  if (ORIGINAL_MESSAGE.test(line) || FORWARDED.test(line) || isHeaderBlock(lines, index)) {
    return true;
  }
  return UNDERSCORES.test(line) && (isHeaderBlock(lines, index + 1) || isHeaderBlock(lines, index + 2));
}

function dropTrailing(lines: string[], test: (line: string) => boolean): void {
  while (lines.length > 0 && test(lines[lines.length - 1] ?? '')) {
    lines.pop();
  }
}

const isBlank = (line: string) => line.trim() === '';

/** The reply's own text; the empty string when nothing is left (the caller then shows the whole text). */
export function visibleReplyText(text: string): string {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const quoteAt = lines.findIndex((_, index) => startsQuote(lines, index));
  const kept = quoteAt === -1 ? lines : lines.slice(0, quoteAt);
  // A quote with nothing of the reply's after it: Gmail's plain text without an attribution line.
  dropTrailing(kept, (line) => isBlank(line) || /^\s*>/.test(line));
  const signatureAt = kept.findIndex((line, index) => index > 0 && SIGNATURE_DELIMITER.test(line));
  if (signatureAt !== -1) {
    kept.length = signatureAt;
  }
  dropTrailing(kept, (line) => isBlank(line) || MOBILE_SIGNATURE.test(line));
  return kept.join('\n').trim();
}

/** Where the quoted original (or the signature) of an HTML reply starts, by the markup the clients above write. */
const HTML_QUOTE_MARKS = [
  /<div\b[^>]*\bclass\s*=\s*["'][^"']*\bgmail_(quote|signature)\b/i,
  /<div\b[^>]*\bclass\s*=\s*["'][^"']*\bmoz-(cite-prefix|signature)\b/i,
  /<div\b[^>]*\bclass\s*=\s*["'][^"']*\byahoo_quoted\b/i,
  /<blockquote\b[^>]*\btype\s*=\s*["']?cite\b/i,
  /<(div|hr)\b[^>]*\bid\s*=\s*["']?(appendonsend|divRplyFwdMsg|stopSpelling)\b/i,
  /<div\b[^>]*\bstyle\s*=\s*["'][^"']*border-top\s*:\s*solid\s+#(e1e1e1|b5c4df)/i,
];

/**
 * The HTML of a reply cut where its quote starts; the sanitiser closes what the cut leaves open.
 * Answers the HTML unchanged when no mark is found.
 */
export function visibleReplyHtml(html: string): string {
  let cut = html.length;
  for (const mark of HTML_QUOTE_MARKS) {
    const found = mark.exec(html);
    if (found && found.index < cut) {
      cut = found.index;
    }
  }
  return html.slice(0, cut);
}
