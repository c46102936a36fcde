import { linkify } from './linkify';

/**
 * An answer's plain text as text nodes, with its http(s) addresses (and Markdown links) as links
 * opening in a new tab: nothing in it is ever read as HTML.
 */
export function MessageText(props: { text: string }) {
  return (
    <p class="message-text">
      {linkify(props.text).map((piece, index) =>
        typeof piece === 'string' ? (
          piece
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: the pieces of one text, in order, never reordered
          <a key={index} href={piece.href} target="_blank" rel="noopener">
            {piece.text}
          </a>
        ),
      )}
    </p>
  );
}
