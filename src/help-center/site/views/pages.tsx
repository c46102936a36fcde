import type { PublishedArticleSummary } from '../../articles/published-article.service.js';
import type { SiteCollection } from '../../collections/published-collection.service.js';
import type { CollectionCard } from '../site.service.js';
import { type SiteAddress, sitePaths } from '../site-address.js';
import { CollectionIcon } from './icons.js';

/** Pieces the pages share: breadcrumbs, collection cards, article lists. */

export function Breadcrumbs({ address, homeName, trail }: { address: SiteAddress; homeName: string; trail: SiteCollection[] }) {
  return (
    <nav class="breadcrumbs" aria-label="Breadcrumb">
      <ol>
        <li>
          <a href={sitePaths.home(address)} safe>
            {homeName}
          </a>
        </li>
        {trail.map((collection) => (
          <li>
            <a href={sitePaths.collection(address, collection)} safe>
              {collection.name}
            </a>
          </li>
        ))}
      </ol>
    </nav>
  );
}

const articlesLabel = (count: number) => (count === 1 ? '1 article' : `${count} articles`);

export function CollectionCards({
  address,
  cards,
  headingLevel,
}: {
  address: SiteAddress;
  cards: CollectionCard[];
  headingLevel: 2 | 3;
}) {
  return (
    <ul class="cards">
      {cards.map(({ collection, articleCount }) => (
        <li>
          <div class="card">
            <CollectionIcon name={collection.icon} />
            <div>
              {headingLevel === 2 ? (
                <h2>
                  <a href={sitePaths.collection(address, collection)} safe>
                    {collection.name}
                  </a>
                </h2>
              ) : (
                <h3>
                  <a href={sitePaths.collection(address, collection)} safe>
                    {collection.name}
                  </a>
                </h3>
              )}
              {collection.description ? <p safe>{collection.description}</p> : ''}
              <span class="count" safe>
                {articlesLabel(articleCount)}
              </span>
            </div>
          </div>
        </li>
      ))}
    </ul>
  );
}

export function ArticleList({ address, articles }: { address: SiteAddress; articles: PublishedArticleSummary[] }) {
  return (
    <ul class="article-list">
      {articles.map((article) => (
        <li>
          <a href={sitePaths.article(address, article)} safe>
            {article.title}
          </a>
          {article.description ? <p safe>{article.description}</p> : ''}
        </li>
      ))}
    </ul>
  );
}
