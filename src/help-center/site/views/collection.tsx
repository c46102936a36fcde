import type { PublishedArticleSummary } from '../../articles/published-article.service.js';
import type { SiteCollection } from '../../collections/published-collection.service.js';
import type { CollectionCard, SiteHelpCenter } from '../site.service.js';
import { type SiteAddress, sitePaths } from '../site-address.js';
import { ArticleList, Breadcrumbs, CollectionCards } from './pages.js';

export interface CollectionViewProps {
  helpCenter: SiteHelpCenter;
  address: SiteAddress;
  collection: SiteCollection;
  trail: SiteCollection[];
  children: CollectionCard[];
  articles: PublishedArticleSummary[];
  /** The next page's `after`, when there is one. */
  nextAfter: number | undefined;
  /** Whether this is a page after the first. */
  paged: boolean;
}

export function CollectionView(props: CollectionViewProps) {
  const { address, collection } = props;
  const here = sitePaths.collection(address, collection);
  return (
    <div class="wrap page">
      <Breadcrumbs address={address} homeName={props.helpCenter.name} trail={props.trail.slice(0, -1)} />
      <h1 safe>{collection.name}</h1>
      {collection.description ? (
        <p class="lead" safe>
          {collection.description}
        </p>
      ) : (
        ''
      )}
      {props.children.length > 0 ? (
        <section aria-labelledby="sections">
          <h2 id="sections">Sections</h2>
          <CollectionCards address={address} cards={props.children} headingLevel={3} />
        </section>
      ) : (
        ''
      )}
      <section aria-labelledby="articles">
        <h2 id="articles">Articles</h2>
        {props.articles.length > 0 ? (
          <ArticleList address={address} articles={props.articles} />
        ) : (
          <p class="notice">{props.paged ? 'No more articles.' : 'No articles are published in this collection yet.'}</p>
        )}
      </section>
      {props.paged || props.nextAfter !== undefined ? (
        <nav class="pager" aria-label="Pages">
          {props.paged ? <a href={here}>First page</a> : <span />}
          {props.nextAfter !== undefined ? (
            <a href={`${here}?after=${props.nextAfter}`} rel="next">
              Next page
            </a>
          ) : (
            ''
          )}
        </nav>
      ) : (
        ''
      )}
    </div>
  );
}
