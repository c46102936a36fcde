import { AttachmentList, type LoadFile } from './AttachmentList';
import { isWebAddress } from './linkify';
import { MessageText } from './MessageText';
import type { ShownMessage } from './use-conversation';

/** What the visitor can do with an answer: rate it, and (where the widget has a team and no person has it yet) ask for a person. */
function AnswerActions(props: {
  message: ShownMessage;
  onHelped: (messageId: string) => void;
  onTalkToPerson: (() => void) | null;
}) {
  const { message, onTalkToPerson } = props;
  return (
    <div class="answer-actions">
      {message.helpful === true ? (
        <p class="helped">Thanks: glad it helped.</p>
      ) : (
        <button type="button" class="link-button helped-button" onClick={() => props.onHelped(message.id)}>
          That helped
        </button>
      )}
      {onTalkToPerson ? (
        <button type="button" class="link-button helped-button" onClick={onTalkToPerson}>
          Talk to a person
        </button>
      ) : null}
    </div>
  );
}

/**
 * One message of the conversation: the visitor's words as they wrote them, a person's reply with
 * their name (either with its files), or an answer of the assistant with its sources.
 */
export function MessageBubble(props: {
  message: ShownMessage;
  onHelped: (messageId: string) => void;
  onTalkToPerson: (() => void) | null;
  loadFile: LoadFile;
}) {
  const { message } = props;
  // The server lists articles of the public site; anything else is not offered as a link.
  const sources = message.citations.filter((citation) => isWebAddress(citation.url));
  if (message.author === 'visitor') {
    return (
      <div class="message visitor">
        <span class="sr-only">You: </span>
        {message.content ? <p class="message-text">{message.content}</p> : null}
        <AttachmentList attachments={message.attachments} loadFile={props.loadFile} />
      </div>
    );
  }
  if (message.author === 'agent') {
    const name = message.authorName ?? 'Support team';
    return (
      <div class="message agent">
        <p class="author" aria-hidden="true">
          {name}
        </p>
        <span class="sr-only">{name}: </span>
        <MessageText text={message.content} />
        <AttachmentList attachments={message.attachments} loadFile={props.loadFile} />
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
      <AnswerActions message={message} onHelped={props.onHelped} onTalkToPerson={props.onTalkToPerson} />
    </div>
  );
}
