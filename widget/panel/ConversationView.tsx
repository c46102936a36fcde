import type { RefObject } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { Composer } from './Composer';
import { HandoffNotice } from './HandoffNotice';
import { MessageBubble } from './MessageBubble';
import type { Notice, useConversation } from './use-conversation';

type Conversation = ReturnType<typeof useConversation>;

/**
 * What the panel says under the messages. When the assistant asked for a person and none has the
 * conversation yet: "Talk to a person" where the widget has a team for it, else that it could not answer.
 */
function NoticeLine(props: { notice: Notice; onRetry: () => void; onTalkToPerson: (() => void) | null; handedOff: boolean }) {
  const { notice } = props;
  if (notice?.kind === 'handoff') {
    if (props.handedOff) {
      return null;
    }
    return props.onTalkToPerson ? (
      <p class="notice">
        The assistant could not answer this; a person from the team can.{' '}
        <button type="button" class="link-button" onClick={props.onTalkToPerson}>
          Talk to a person
        </button>
      </p>
    ) : (
      <p class="notice">The assistant could not answer this; try other words or search the help center.</p>
    );
  }
  if (notice?.kind === 'interrupted') {
    return (
      <p class="notice">
        The answer was interrupted.{' '}
        <button type="button" class="link-button" onClick={props.onRetry}>
          Retry
        </button>
      </p>
    );
  }
  if (notice?.kind === 'refused') {
    return <p class="notice">{notice.text}</p>;
  }
  return null;
}

/**
 * The visitor's conversation with the help center's assistant, and with a person once handed off:
 * the messages (a polite log that announces each message once, the final answer and a person's
 * replies included; the answer being written is shown beside it, hidden from screen readers, so
 * they do not read every word), the handoff's notice, what went wrong, and the composer. A visitor
 * who must sign in first reads why, and gets no composer.
 */
export function ConversationView(props: {
  conversation: Conversation;
  canChat: boolean;
  /** The widget names a team that takes conversations over. */
  handoffAvailable: boolean;
  focusOnOpen: RefObject<HTMLElement | null>;
  onBack: () => void;
}) {
  const { conversation, canChat, focusOnOpen } = props;
  const back = useRef<HTMLButtonElement>(null);
  const field = useRef<HTMLTextAreaElement>(null);
  const end = useRef<HTMLDivElement>(null);
  const section = useRef<HTMLElement>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: canChat decides whether the composer is there to focus
  useEffect(() => {
    const target = field.current ?? back.current;
    focusOnOpen.current = target;
    target?.focus();
    // Again once the composer appears (the visitor's identity read after the view opened).
  }, [focusOnOpen, canChat]);

  // The latest words in view; the panel's body is the scrolling box (never the host page).
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs whenever what is shown grows
  useEffect(() => {
    const box = end.current?.closest('.body');
    if (box) {
      box.scrollTop = box.scrollHeight;
    }
  }, [conversation.messages.length, conversation.streaming, conversation.notice, conversation.conversation?.handoff]);

  // A hidden panel is not laid out, so what arrived while it was closed (a person's reply) could not be
  // scrolled to: once it is laid out again (the conversation grows), back to the end, unless the visitor had scrolled up.
  useEffect(() => {
    const box = end.current?.closest('.body');
    const content = section.current;
    if (!box || !content || typeof ResizeObserver === 'undefined') {
      return;
    }
    let atEnd = true;
    const onScroll = () => {
      atEnd = box.scrollTop + box.clientHeight >= box.scrollHeight - 32;
    };
    const observer = new ResizeObserver(() => {
      if (atEnd) {
        box.scrollTop = box.scrollHeight;
      }
    });
    box.addEventListener('scroll', onScroll);
    observer.observe(box);
    observer.observe(content);
    return () => {
      box.removeEventListener('scroll', onScroll);
      observer.disconnect();
    };
  }, []);

  const handoff = conversation.conversation?.handoff ?? null;
  // Once a person has the conversation, a message goes to them: no answer is being written.
  const streaming = conversation.streaming !== null && handoff === null;
  const focusComposer = () => field.current?.focus();
  // The button goes once the conversation is handed off: focus moves on to the composer, not to the page.
  const talkToPerson =
    props.handoffAvailable && canChat && handoff === null
      ? () => void conversation.talkToPerson().then((handedOff) => handedOff && focusComposer())
      : null;
  return (
    <section class="conversation" aria-label="Conversation with the assistant" ref={section}>
      <button type="button" class="back" ref={back} onClick={props.onBack}>
        <span aria-hidden="true">{'\u2190'}</span> Back
      </button>
      {canChat ? null : (
        <p class="notice">
          Only signed-in customers can chat here. Sign in on this website to ask a question; you can still search the help center.
        </p>
      )}
      {conversation.status === 'loading' ? <p class="status">Loading the conversation{'\u2026'}</p> : null}
      {conversation.status === 'failed' ? (
        <p class="status">The conversation could not be loaded. Try again in a moment.</p>
      ) : null}
      {conversation.status === 'ready' && conversation.messages.length === 0 && !streaming && canChat ? (
        <p class="status">Ask a question: the assistant answers from the help center{'\u2019'}s articles.</p>
      ) : null}
      <div class="messages" role="log" aria-live="polite" aria-label="Messages">
        {conversation.messages.map((message) => (
          <MessageBubble
            key={message.key}
            message={message}
            onHelped={conversation.rate}
            onTalkToPerson={talkToPerson}
            loadFile={conversation.loadFile}
          />
        ))}
      </div>
      {streaming ? (
        <div class="message assistant streaming" aria-hidden="true">
          <p class="message-text">{conversation.streaming || '\u2026'}</p>
        </div>
      ) : null}
      <p class="sr-only" role="status">
        {streaming ? 'The assistant is answering\u2026' : ''}
      </p>
      {handoff ? <HandoffNotice handoff={handoff} onSaveEmail={conversation.leaveEmail} onEmailSaved={focusComposer} /> : null}
      <NoticeLine
        notice={conversation.notice}
        onRetry={conversation.retry}
        onTalkToPerson={talkToPerson}
        handedOff={handoff !== null}
      />
      <div ref={end} />
      {canChat ? (
        <Composer
          busy={conversation.streaming !== null}
          onSend={conversation.send}
          // Files go to a person only: the button comes with the handoff.
          onAttach={handoff ? conversation.sendFile : null}
          onTyping={conversation.reportTyping}
          field={field}
        />
      ) : null}
    </section>
  );
}
