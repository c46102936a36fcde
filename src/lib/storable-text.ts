/**
 * Text from outside (a webhook receiver's answer, a tool's or a model's output, an email, an SMTP or
 * IMAP server's reply) made storable in both databases. PostgreSQL refuses the NUL character in
 * `text` and its escape `\u0000` in `jsonb`, and refuses in `jsonb` the escape of a lone surrogate
 * (half of a UTF-16 pair, which no UTF-8 can encode). One refused value fails the whole statement:
 * a worker recording it fails every time, and whatever queues behind it waits for good. NULs are
 * dropped and lone surrogates become U+FFFD, the replacement character, as a decoder reading
 * invalid UTF-8 makes of its bad bytes; everything else is kept as it came.
 */

const NUL = String.fromCharCode(0);
const SURROGATE = /[\uD800-\uDFFF]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/**
 * In JSON text: an escaped backslash (kept, so that `\\u0000`, a backslash then `u0000`, is left
 * alone), a surrogate pair written as two escapes (kept), the escape of NUL, of a lone surrogate.
 */
const JSON_ESCAPES = /\\\\|\\ud[89ab][0-9a-f]{2}\\ud[c-f][0-9a-f]{2}|\\u0000|\\ud[89a-f][0-9a-f]{2}/gi;

/** `text` without NUL characters and with lone surrogates replaced; the same string when it has neither. */
export function storableText(text: string): string;
export function storableText(text: string | null): string | null;
export function storableText(text: string | null): string | null {
  if (text === null) {
    return null;
  }
  const withoutNul = text.includes(NUL) ? text.replaceAll(NUL, '') : text;
  return SURROGATE.test(withoutNul) ? withoutNul.replace(LONE_SURROGATE, '\uFFFD') : withoutNul;
}

/** JSON text whose strings are storable: the escapes of NUL dropped, those of lone surrogates replaced. */
export function storableJsonText(json: string): string {
  const text = storableText(json);
  if (!text.includes('\\u')) {
    return text;
  }
  return text.replace(JSON_ESCAPES, (found) => {
    if (found.length !== 6) {
      return found;
    }
    return found === '\\u0000' ? '' : '\\ufffd';
  });
}

/** `value` as JSON text that both databases store (`jsonb` on PostgreSQL). */
export function storableJson(value: unknown): string {
  // JSON.stringify answers undefined for undefined itself, a function or a symbol.
  return storableJsonText(JSON.stringify(value) ?? 'null');
}
