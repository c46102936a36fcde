/**
 * Where a help center's pages are: under `/hc/{slug}` on the shared host, or at the root of its
 * custom domain. Every link a page renders is built here, so both forms stay in step.
 */
export interface SiteAddress {
  /** `https://help.example.com`: scheme and host the reader used. */
  origin: string;
  /** `/hc/acme` on the shared host, `` on the help center's own domain. */
  base: string;
  /**
   * Where search engines should find the pages when that is elsewhere: the help center's custom
   * domain, for its pages read on the shared host. Canonical URLs and sitemaps use it.
   */
  canonical?: SiteAddress;
}

/** The address canonical URLs are written with. */
export const canonicalAddress = (address: SiteAddress): SiteAddress => address.canonical ?? address;

/** The version of the stylesheet and script, so that their addresses change when they do. */
export interface AssetUrls {
  css: string;
  js: string;
}

export const sitePaths = {
  home: (address: SiteAddress) => `${address.base}/`,
  collection: (address: SiteAddress, collection: { uid: number; slug: string }) =>
    `${address.base}/collections/${encodeURIComponent(collectionSegment(collection))}`,
  article: (address: SiteAddress, article: { slug: string }) => `${address.base}/articles/${encodeURIComponent(article.slug)}`,
  /** The article as Markdown: its address with `.md` appended. */
  markdown: (address: SiteAddress, article: { slug: string }) =>
    `${address.base}/articles/${encodeURIComponent(article.slug)}.md`,
  /** The sitemap, or (`page`) one of the sitemaps its index names. */
  sitemap: (address: SiteAddress, page?: number) => `${address.base}/${page === undefined ? 'sitemap' : `sitemap-${page}`}.xml`,
  llms: (address: SiteAddress) => `${address.base}/llms.txt`,
  search: (address: SiteAddress, query?: { q: string; page?: number }) => {
    if (!query) {
      return `${address.base}/search`;
    }
    const params = new URLSearchParams({ q: query.q });
    if (query.page && query.page > 1) {
      params.set('page', String(query.page));
    }
    return `${address.base}/search?${params.toString()}`;
  },
  signIn: (address: SiteAddress) => `${address.base}/sign-in`,
  signOut: (address: SiteAddress) => `${address.base}/sign-out`,
  feedback: (address: SiteAddress, article: { slug: string }) =>
    `${address.base}/articles/${encodeURIComponent(article.slug)}/feedback`,
  logo: (address: SiteAddress) => `${address.base}/logo`,
  image: (address: SiteAddress, attachmentId: string) => `${address.base}/images/${attachmentId}`,
  absolute: (address: SiteAddress, path: string) => `${address.origin}${path}`,
};

/** A collection's address segment: its number and slug, as article addresses are (slugs repeat across parents). */
export const collectionSegment = (collection: { uid: number; slug: string }) => `${collection.uid}-${collection.slug}`;

/** The number an article's or collection's segment starts with, or undefined for a malformed segment. */
export function numberOfSegment(segment: string): number | undefined {
  const match = /^([1-9][0-9]{0,14})(?:-[\p{Ll}\p{Lo}\p{N}]+)*$/u.exec(segment);
  return match ? Number(match[1]) : undefined;
}

/**
 * The article body as the site shows it: an image the editor uploaded (`/v1/attachments/{id}`,
 * which needs a session) is read from the site's own address for it instead.
 */
export function withSiteImages(html: string, address: SiteAddress): string {
  return html.replace(/src="\/v1\/attachments\/([0-9A-Z]{26})"/g, (_, id: string) => `src="${sitePaths.image(address, id)}"`);
}
