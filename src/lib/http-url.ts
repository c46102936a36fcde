/** The Ajv format name of a URL that clients may render: see `isHttpUrl`. */
export const HTTP_URL_FORMAT = 'http-url';

/**
 * Whether `text` is an absolute http or https URL with a host, exactly as sent: pages put these
 * into `href` and `src`, so `javascript:`, `data:` and every other scheme are refused, in any
 * letter case and behind leading blanks or control characters (which browsers would strip).
 */
export function isHttpUrl(text: string): boolean {
  if (!/^https?:\/\/[^\s\p{Cc}]+$/iu.test(text)) {
    return false;
  }
  try {
    return new URL(text).hostname !== '';
  } catch {
    return false;
  }
}
