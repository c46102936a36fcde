import type { RefObject } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import type { useSearch } from './use-search';

type Search = ReturnType<typeof useSearch>;

function statusText(search: Search): string {
  if (search.status === 'searching') {
    return 'Searching\u2026';
  }
  if (search.status === 'failed') {
    return 'The search did not answer. Try again in a moment.';
  }
  if (search.status === 'done' && search.results.length === 0) {
    return `No articles match \u201c${search.answered}\u201d.`;
  }
  if (search.status === 'done') {
    const count = search.results.length;
    return `${count}${search.hasMore ? '+' : ''} article${count === 1 ? '' : 's'} found.`;
  }
  return '';
}

/** `returnTo` when the visitor comes back from the conversation: the "Ask a question" entry is focused again. */
export const FROM_CONVERSATION = '\u0000conversation';

/**
 * The panel's first view: the greeting, "Ask a question" when the help center's assistant
 * answers here, the search box and its results. A result opens its article inside the panel;
 * `returnTo` names the result (or the entry) the visitor came back from, focused again.
 */
export function SearchView(props: {
  greeting: string | null;
  search: Search;
  onOpenArticle: (slug: string) => void;
  focusOnOpen: RefObject<HTMLElement | null>;
  returnTo: string | null;
  /** Opens the conversation; null when no assistant answers in this messenger. */
  onAsk: (() => void) | null;
}) {
  const { search } = props;
  const input = useRef<HTMLInputElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const ask = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    props.focusOnOpen.current = input.current;
    const back =
      props.returnTo === FROM_CONVERSATION
        ? ask.current
        : props.returnTo
          ? list.current?.querySelector<HTMLElement>(`[data-slug="${CSS.escape(props.returnTo)}"]`)
          : null;
    back?.focus();
  }, [props.focusOnOpen, props.returnTo]);

  return (
    <div class="search">
      {props.greeting ? <p class="greeting">{props.greeting}</p> : null}
      {props.onAsk ? (
        <button type="button" class="ask" ref={ask} onClick={props.onAsk}>
          Ask a question
        </button>
      ) : null}
      <label class="search-label" for="switchboard-search">
        Search the help center
      </label>
      <input
        ref={input}
        id="switchboard-search"
        class="search-input"
        type="search"
        autocomplete="off"
        value={search.query}
        onInput={(event) => search.setQuery(event.currentTarget.value)}
      />
      <p class="status" role="status" aria-live="polite">
        {statusText(search)}
      </p>
      {search.results.length > 0 ? (
        <ul class="results" ref={list}>
          {search.results.map((result) => (
            <li key={result.slug}>
              <button type="button" class="result" data-slug={result.slug} onClick={() => props.onOpenArticle(result.slug)}>
                <span class="result-title">{result.title}</span>
                {/* The server escapes the excerpt and adds only <mark> around the matched words. */}
                {/* biome-ignore lint/security/noDangerouslySetInnerHtml: escaped by the server */}
                <span class="result-excerpt" dangerouslySetInnerHTML={{ __html: result.excerptHtml }} />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {search.hasMore ? (
        <button type="button" class="more" onClick={search.showMore} disabled={search.status === 'searching'}>
          More results
        </button>
      ) : null}
    </div>
  );
}
