import type { PublishedArticle } from '../articles/published-article.service.js';
import type { SiteCollection } from '../collections/published-collection.service.js';
import { canonicalAddress, sitePaths } from './site-address.js';
import type { SiteContext } from './site-page.js';
import type { PageHead } from './views/layout.js';

/**
 * What each page says about itself to search engines and link previews: the contract's `meta`
 * (title, description, image) where the author set it, else the page's own title and description.
 */

const MAX_TITLE_QUERY = 80;

function titled(context: SiteContext, title: string): string {
  return title === context.helpCenter.name ? title : `${title} | ${context.helpCenter.name}`;
}

function breadcrumbList(context: SiteContext, trail: Array<{ name: string; path: string }>) {
  const address = canonicalAddress(context.address);
  const items = [{ name: context.helpCenter.name, path: sitePaths.home(address) }, ...trail];
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: items.map((item, index) => ({
      '@type': 'ListItem',
      position: index + 1,
      name: item.name,
      item: sitePaths.absolute(address, item.path),
    })),
  };
}

const collectionCrumbs = (context: SiteContext, trail: SiteCollection[]) =>
  trail.map((collection) => ({
    name: collection.name,
    path: sitePaths.collection(canonicalAddress(context.address), collection),
  }));

export function homeHead(context: SiteContext): PageHead {
  const { helpCenter } = context;
  const address = canonicalAddress(context.address);
  return {
    title: helpCenter.meta.title ?? helpCenter.name,
    description: helpCenter.meta.description,
    canonicalPath: sitePaths.home(address),
    image: helpCenter.meta.image,
    jsonLd: [
      {
        '@context': 'https://schema.org',
        '@type': 'WebSite',
        name: helpCenter.name,
        url: sitePaths.absolute(address, sitePaths.home(address)),
        potentialAction: {
          '@type': 'SearchAction',
          target: `${sitePaths.absolute(address, sitePaths.search(address))}?q={search_term_string}`,
          'query-input': 'required name=search_term_string',
        },
      },
    ],
  };
}

export function collectionHead(context: SiteContext, page: { collection: SiteCollection; trail: SiteCollection[] }): PageHead {
  const { collection } = page;
  return {
    title: titled(context, collection.meta.title ?? collection.name),
    description: collection.meta.description ?? collection.description,
    canonicalPath: sitePaths.collection(canonicalAddress(context.address), collection),
    image: collection.meta.image ?? context.helpCenter.meta.image,
    jsonLd: [breadcrumbList(context, collectionCrumbs(context, page.trail))],
  };
}

export function articleHead(context: SiteContext, page: { article: PublishedArticle; trail: SiteCollection[] }): PageHead {
  const { article } = page;
  const canonical = canonicalAddress(context.address);
  const path = sitePaths.article(canonical, article);
  const description = article.meta.description ?? article.description;
  const image = article.meta.image ?? context.helpCenter.meta.image;
  return {
    title: titled(context, article.meta.title ?? article.title),
    description,
    canonicalPath: path,
    ogType: 'article',
    image,
    alternates: [{ type: 'text/markdown', href: sitePaths.markdown(context.address, article) }],
    jsonLd: [
      {
        '@context': 'https://schema.org',
        '@type': 'Article',
        headline: article.title,
        ...(description ? { description } : {}),
        ...(image ? { image } : {}),
        datePublished: article.publishedAt,
        dateModified: article.updatedAt,
        mainEntityOfPage: sitePaths.absolute(canonical, path),
        publisher: { '@type': 'Organization', name: context.helpCenter.name },
      },
      breadcrumbList(context, [...collectionCrumbs(context, page.trail), { name: article.title, path }]),
    ],
  };
}

export function searchHead(context: SiteContext, q: string): PageHead {
  const term = q.trim();
  const shown = term.length > MAX_TITLE_QUERY ? `${term.slice(0, MAX_TITLE_QUERY)}…` : term;
  return {
    title: titled(context, shown ? `Search results for “${shown}”` : 'Search'),
    description: null,
    canonicalPath: null,
    noindex: true,
  };
}
