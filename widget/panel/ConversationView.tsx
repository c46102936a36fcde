import type { MessengerClient } from './messenger-client';

/**
 * Where the conversation goes, in the next increment of issue 34: the visitor asks, the help
 * center's agent answers token by token (announced politely) citing the articles it used, with
 * "That helped" and "Talk to a person"; then a person's live replies, and the unread count the
 * panel reports to the loader (`switchboard:unread`). Its state is the panel's `{ name:
 * 'conversation' }` view; nothing opens it yet, so the panel offers no "Ask" until asking works.
 */
export function ConversationView(_props: { client: MessengerClient }) {
  return <section class="conversation" aria-label="Conversation" />;
}
