import { MessageCircle } from 'lucide-react';

/** The small mark of a ticket from the messenger, where a list has no room for words; named for screen readers. */
export function ChatMark() {
  return (
    <MessageCircle
      size={14}
      role="img"
      aria-label="Chat"
      className="mr-1 inline-block shrink-0 align-[-2px] text-blue-600 dark:text-blue-400"
    />
  );
}
