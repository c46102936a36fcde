import { MessageText } from './MessageText';
import type { ShownMessage } from './use-conversation';

/** One message of the conversation: the visitor's words as they wrote them, or an answer with its sources. */
export function MessageBubble({ message }: { message: ShownMessage }) {
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
      {message.citations.length > 0 ? (
        <div class="sources">
          <p class="sources-title" id={`sources-${message.key}`}>
            Sources
          </p>
          <ul aria-labelledby={`sources-${message.key}`}>
            {message.citations.map((citation) => (
              <li key={citation.url}>
                <a href={citation.url} target="_blank" rel="noopener">
                  {citation.title}
                </a>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}
