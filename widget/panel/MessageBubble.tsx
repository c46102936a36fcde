import { isWebAddress } from './linkify';
import { MessageText } from './MessageText';
import type { ShownMessage } from './use-conversation';

/** One message of the conversation: the visitor's words as they wrote them, or an answer with its sources. */
export function MessageBubble({ message, onHelped }: { message: ShownMessage; onHelped: (messageId: string) => void }) {
  // The server lists articles of the public site; anything else is not offered as a link.
  const sources = message.citations.filter((citation) => isWebAddress(citation.url));
  if (message.author === 'visitor') {
    return (
      <div class="message visitor">
        <span class="sr-only">You: </span>
        <p class="message-text">{message.content}</p>
      </div>
    );
  }
  return (
    <div class="message assistant">
      <span class="sr-only">Assistant: </span>
      <MessageText text={message.content} />
      {sources.length > 0 ? (
        <div class="sources">
          <p class="sources-title" id={`sources-${message.key}`}>
            Sources
          </p>
          <ul aria-labelledby={`sources-${message.key}`}>
            {sources.map((citation) => (
              <li key={citation.url}>
                <a href={citation.url} target="_blank" rel="noopener">
                  {citation.title}
                </a>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {message.helpful === true ? (
        <p class="helped">Thanks: glad it helped.</p>
      ) : (
        <button type="button" class="link-button helped-button" onClick={() => onHelped(message.id)}>
          That helped
        </button>
      )}
    </div>
  );
}
