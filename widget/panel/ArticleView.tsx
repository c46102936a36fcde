import type { RefObject } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, type Article, type MessengerClient } from './messenger-client';

type Loaded = { status: 'loading' } | { status: 'ready'; article: Article } | { status: 'missing' } | { status: 'failed' };

/**
 * An article read inside the panel: its title and published HTML (sanitised by the server), a link
 * to its page on the public site, and Back. Links in the article open in a new tab, not in the panel.
 */
export function ArticleView(props: {
  client: MessengerClient;
  slug: string;
  onBack: () => void;
  focusOnOpen: RefObject<HTMLElement | null>;
}) {
  const { client, slug, focusOnOpen } = props;
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });
  const back = useRef<HTMLButtonElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const body = useRef<HTMLDivElement>(null);

  useEffect(() => {
    focusOnOpen.current = back.current;
    back.current?.focus();
    const controller = new AbortController();
    client
      .article(slug, controller.signal)
      .then((article) => setLoaded({ status: 'ready', article }))
      .catch((error: unknown) => {
        if (!controller.signal.aborted) {
          setLoaded({ status: error instanceof ApiError && error.status === 404 ? 'missing' : 'failed' });
        }
      });
    return () => controller.abort();
  }, [client, slug, focusOnOpen]);

  useEffect(() => {
    if (loaded.status !== 'ready') {
      return;
    }
    for (const link of body.current?.querySelectorAll<HTMLAnchorElement>('a[href]') ?? []) {
      if (!link.getAttribute('href')?.startsWith('#')) {
        link.target = '_blank';
        link.rel = 'noopener';
      }
    }
    focusOnOpen.current = heading.current;
    heading.current?.focus();
  }, [loaded, focusOnOpen]);

  return (
    <article class="article" aria-busy={loaded.status === 'loading'}>
      <button type="button" class="back" ref={back} onClick={props.onBack}>
        <span aria-hidden="true">{'\u2190'}</span> Back
      </button>
      {loaded.status === 'loading' ? <p class="status">Loading the article{'\u2026'}</p> : null}
      {loaded.status === 'missing' ? <p class="status">This article is not available any more.</p> : null}
      {loaded.status === 'failed' ? <p class="status">The article could not be loaded. Try again in a moment.</p> : null}
      {loaded.status === 'ready' ? (
        <>
          <h2 class="article-title" ref={heading} tabIndex={-1}>
            {loaded.article.title}
          </h2>
          {/* biome-ignore lint/security/noDangerouslySetInnerHtml: the published article, sanitised by the server */}
          <div class="article-body" ref={body} dangerouslySetInnerHTML={{ __html: loaded.article.html }} />
          <p>
            <a class="open-site" href={loaded.article.url} target="_blank" rel="noopener">
              Open in the help center
            </a>
          </p>
        </>
      ) : null}
    </article>
  );
}
