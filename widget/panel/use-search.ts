import { useEffect, useRef, useState } from 'preact/hooks';
import type { MessengerClient, SearchResult } from './messenger-client';

/** How long the visitor may pause typing before the search is sent. */
const DEBOUNCE_MS = 250;

export interface SearchState {
  /** The query these results answer (trimmed). */
  answered: string;
  status: 'idle' | 'searching' | 'done' | 'failed';
  results: SearchResult[];
  page: number;
  hasMore: boolean;
}

const IDLE: SearchState = { answered: '', status: 'idle', results: [], page: 0, hasMore: false };

/**
 * The help center's search as the visitor types: sent once typing pauses, the previous request
 * cancelled when the query changes, further pages appended. Held by the panel, so the results are
 * still there when the visitor comes back from an article.
 */
export function useSearch(client: MessengerClient) {
  const [query, setQuery] = useState('');
  const [state, setState] = useState<SearchState>(IDLE);
  // Read by the effect to skip a query already answered (coming back from an article), not a reason to search again.
  const current = useRef(state);
  current.current = state;

  useEffect(() => {
    const wanted = query.trim();
    if (wanted === '') {
      setState(IDLE);
      return;
    }
    if (wanted === current.current.answered && current.current.status === 'done') {
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      setState((previous) => ({ ...previous, status: 'searching' }));
      client
        .search(wanted, 1, controller.signal)
        .then((found) => setState({ answered: wanted, status: 'done', ...found }))
        .catch(() => {
          if (!controller.signal.aborted) {
            setState({ ...IDLE, answered: wanted, status: 'failed' });
          }
        });
    }, DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [client, query]);

  const showMore = () => {
    const { answered, page } = state;
    setState((previous) => ({ ...previous, status: 'searching' }));
    client
      .search(answered, page + 1)
      .then((found) =>
        setState((previous) =>
          previous.answered === answered
            ? {
                ...previous,
                status: 'done',
                results: [...previous.results, ...found.results],
                page: found.page,
                hasMore: found.hasMore,
              }
            : previous,
        ),
      )
      .catch(() => setState((previous) => ({ ...previous, status: 'failed' })));
  };

  return { query, setQuery, ...state, showMore };
}
