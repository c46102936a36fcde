import { ErrorNotice } from '../ui/ErrorNotice';
import { agoInWords } from './chat-visitor';
import type { ChatVisitorView } from './use-chat-visitor';

/** Whether the chat's visitor is still in the messenger, in words beside the dot (colour is never the only sign). */
export function ChatPresenceLine({ visitor }: { visitor: ChatVisitorView }) {
  const { presence } = visitor;
  if (!presence) {
    return <ErrorNotice error={visitor.error} />;
  }
  return (
    <p
      className={`flex items-center gap-1.5 ${
        presence.online ? 'text-emerald-800 dark:text-emerald-300' : 'text-zinc-600 dark:text-zinc-400'
      }`}
    >
      <span
        aria-hidden
        className={`h-2 w-2 shrink-0 rounded-full ${presence.online ? 'bg-emerald-500' : 'bg-zinc-400 dark:bg-zinc-500'}`}
      />
      {presence.online ? 'Chatting in the messenger · online' : `Left the chat ${agoInWords(presence.leftAgoMs)}`}
    </p>
  );
}
