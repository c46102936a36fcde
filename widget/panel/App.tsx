import { useEffect, useRef, useState } from 'preact/hooks';
import { accentColors } from '../shared/colors';
import { ArticleView } from './ArticleView';
import { ConversationView } from './ConversationView';
import type { HelpCenterConfig, MessengerClient, Visitor } from './messenger-client';
import { isFramed, listenToLoader, tellLoader } from './parent';
import { FROM_CONVERSATION, SearchView } from './SearchView';
import type { SoundPreference } from './sound';
import { useConversation } from './use-conversation';
import { useSearch } from './use-search';
import { useSound } from './use-sound';
import { useUnread } from './use-unread';

/** What the panel shows: the search (home), an article, or the conversation with the assistant. */
export type View = { name: 'search'; returnTo: string | null } | { name: 'article'; slug: string } | { name: 'conversation' };

/** The help center's colour behind the header and buttons, with white or black text, whichever reads better on it. */
function applyAccent(color: string | null): void {
  const { accent, onAccent } = accentColors(color);
  document.documentElement.style.setProperty('--accent', accent);
  document.documentElement.style.setProperty('--on-accent', onAccent);
}

/** The header: the help center's name, the notification sound's toggle (off at first), and Close in the loader's frame. */
function Header(props: { name: string; sound: ReturnType<typeof useSound> }) {
  const { sound } = props;
  return (
    <header class="header">
      <h1 class="title">{props.name}</h1>
      <button
        type="button"
        class="sound-toggle"
        aria-pressed={sound.on}
        title="Play a sound when a person replies while the messenger is closed"
        onClick={sound.toggle}
      >
        Sound<span aria-hidden="true">: {sound.on ? 'on' : 'off'}</span>
      </button>
      {isFramed ? (
        <button
          type="button"
          class="close"
          aria-label="Close messenger"
          onClick={() => tellLoader({ type: 'switchboard:close' })}
        >
          <span aria-hidden="true">{'\u00d7'}</span>
        </button>
      ) : null}
    </header>
  );
}

/**
 * The panel in the loader's iframe. At start it reads the help center's settings, makes sure the
 * visitor has a token, listens to the loader and tells it it is ready; Escape anywhere asks the
 * loader to close it (key presses in the iframe never reach the host page).
 */
export function App({ client, soundPreference }: { client: MessengerClient; soundPreference: SoundPreference }) {
  const [config, setConfig] = useState<HelpCenterConfig | null>(null);
  const [unavailable, setUnavailable] = useState(false);
  const [view, setView] = useState<View>({ name: 'search', returnTo: null });
  const [visitor, setVisitor] = useState<Visitor | null>(null);
  const [chatOpened, setChatOpened] = useState(false);
  const search = useSearch(client);
  const unread = useUnread();
  const sound = useSound(soundPreference);
  const conversation = useConversation(client, {
    enabled: chatOpened,
    visitorKey: visitor?.id ?? null,
    onAnswer: unread.answerArrived,
    // Only a person's reply that is new (never one read back on load, never the visitor's own) may sound.
    onReply: () => sound.replyArrived(unread.answerArrived()),
  });
  const focusOnOpen = useRef<HTMLElement | null>(null);

  useEffect(() => {
    client
      .config()
      .then((found) => {
        setConfig(found);
        applyAccent(found.widget.launcherColor);
      })
      .catch(() => setUnavailable(true));
    const me = client.me().then(
      (found) => {
        setVisitor(found);
        return found;
      },
      () => null,
    );
    const stopListening = listenToLoader((message) => {
      if (message.type === 'switchboard:open') {
        unread.setShown(true);
        focusOnOpen.current?.focus();
      } else if (message.type === 'switchboard:close') {
        unread.setShown(false);
      } else {
        // After the visitor's own token exists, so that identifying carries it along.
        void me
          .then(() => client.identify(message.token))
          .then(setVisitor)
          .catch((error: unknown) => console.warn('Switchboard: the identity token was refused', error));
      }
    });
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && isFramed) {
        event.preventDefault();
        tellLoader({ type: 'switchboard:close' });
      }
    };
    document.addEventListener('keydown', onKey);
    tellLoader({ type: 'switchboard:ready' });
    return () => {
      stopListening();
      document.removeEventListener('keydown', onKey);
    };
  }, [client, unread]);

  const body = () => {
    if (unavailable) {
      return <p class="status">This messenger is not available right now.</p>;
    }
    switch (view.name) {
      case 'article':
        return (
          <ArticleView
            client={client}
            slug={view.slug}
            focusOnOpen={focusOnOpen}
            onBack={() => setView({ name: 'search', returnTo: view.slug })}
          />
        );
      case 'conversation':
        return (
          <ConversationView
            conversation={conversation}
            canChat={!config?.widget.identityVerificationRequired || visitor?.verified === true}
            handoffAvailable={config?.widget.handoffAvailable === true}
            focusOnOpen={focusOnOpen}
            onBack={() => setView({ name: 'search', returnTo: FROM_CONVERSATION })}
          />
        );
      default:
        return (
          <SearchView
            greeting={config?.widget.greeting ?? null}
            search={search}
            focusOnOpen={focusOnOpen}
            returnTo={view.returnTo}
            onOpenArticle={(slug) => setView({ name: 'article', slug })}
            onAsk={
              config?.widget.chatAvailable
                ? () => {
                    setChatOpened(true);
                    setView({ name: 'conversation' });
                  }
                : null
            }
          />
        );
    }
  };

  return (
    <div class="panel">
      <Header name={config?.helpCenter.name ?? 'Support'} sound={sound} />
      <main class="body">{body()}</main>
    </div>
  );
}
