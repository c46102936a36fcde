import type { PublishedSearchHit } from '../../articles/published-article.service.js';
import type { SearchOutcome } from '../site.service.js';
import { type SiteAddress, sitePaths } from '../site-address.js';
import { SearchForm } from './layout.js';

function Hit({ address, hit }: { address: SiteAddress; hit: PublishedSearchHit }) {
  // The excerpt is built by db/full-text.ts: the text escaped, then only `<mark>` added.
  const safeExcerpt = hit.excerpt;
  return (
    <li>
      <a href={sitePaths.article(address, hit)} safe>
        {hit.title}
      </a>
      <p class="excerpt">{safeExcerpt}</p>
    </li>
  );
}

function NoResults({ q, contactUrl }: { q: string; contactUrl: string | null }) {
  return (
    <div class="notice">
      <p>
        No articles match <strong safe>{q}</strong>.
      </p>
      <p>Try fewer or different words{contactUrl ? '' : '.'}</p>
      {contactUrl ? (
        <p>
          Still stuck? <a href={contactUrl}>Contact support</a>.
        </p>
      ) : (
        <p>Still stuck? Reply to any email from our support team, or write to them, and a person will help.</p>
      )}
    </div>
  );
}

export function SearchView(props: { address: SiteAddress; q: string; outcome: SearchOutcome; contactUrl: string | null }) {
  const { address, q, outcome } = props;
  return (
    <div class="wrap page">
      <h1>{outcome.kind === 'results' ? 'Search results' : 'Search'}</h1>
      <SearchForm address={address} value={q} id="page-search" />
      {outcome.kind === 'refused' ? (
        <p class="notice error" role="alert" safe>
          {outcome.reason}
        </p>
      ) : (
        ''
      )}
      {outcome.kind === 'results' && outcome.hits.length === 0 ? <NoResults q={q} contactUrl={props.contactUrl} /> : ''}
      {outcome.kind === 'results' && outcome.hits.length > 0 ? (
        <>
          <p class="visually-hidden" role="status" safe>
            {`${outcome.hits.length === 1 ? 'One result' : 'Results'} on page ${outcome.page}`}
          </p>
          <ol class="article-list">
            {outcome.hits.map((hit) => (
              <Hit address={address} hit={hit} />
            ))}
          </ol>
          <nav class="pager" aria-label="Pages">
            {outcome.page > 1 ? (
              <a href={sitePaths.search(address, { q, page: outcome.page - 1 })} rel="prev">
                Previous page
              </a>
            ) : (
              <span />
            )}
            {outcome.hasNext ? (
              <a href={sitePaths.search(address, { q, page: outcome.page + 1 })} rel="next">
                Next page
              </a>
            ) : (
              ''
            )}
          </nav>
        </>
      ) : (
        ''
      )}
    </div>
  );
}
