import type { PropsWithChildren } from '@kitajs/html';
import type { SiteHelpCenter, SiteViewer } from '../site.service.js';
import type { AssetUrls, SiteAddress } from '../site-address.js';
import { canonicalAddress, sitePaths } from '../site-address.js';

/** What a page says about itself in `<head>`: for readers, search engines and link previews. */
export interface PageHead {
  title: string;
  description: string | null;
  /** Path of the page's one address (canonical), or null for pages that have none (errors). */
  canonicalPath: string | null;
  /** Search, sign-in and error pages stay out of search engines. */
  noindex?: boolean;
  ogType?: 'website' | 'article';
  image?: string | null;
  /** Structured data, one JSON-LD object per entry. */
  jsonLd?: object[];
  /** The page in other forms (an article's Markdown), as `<link rel="alternate">`. */
  alternates?: Array<{ type: string; href: string }>;
}

export interface LayoutProps {
  helpCenter: SiteHelpCenter;
  viewer: SiteViewer;
  address: SiteAddress;
  assets: AssetUrls;
  head: PageHead;
  /** The `<style>` with the help center's colours (its hash is in the page's CSP). */
  themeCss: string;
  /** The search box sits in the header, except on pages with their own (home, search). */
  headerSearch?: boolean;
}

/** JSON for a `<script type="application/ld+json">`: `<` escaped, so no value can close the element. */
export function jsonForScript(value: object): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

function HeadTags({ head, address, helpCenter }: { head: PageHead; address: SiteAddress; helpCenter: SiteHelpCenter }) {
  const canonical = head.canonicalPath === null ? null : sitePaths.absolute(canonicalAddress(address), head.canonicalPath);
  const description = head.description ?? helpCenter.meta.description;
  const safeJsonLd = (head.jsonLd ?? []).map(jsonForScript);
  return (
    <>
      <title safe>{head.title}</title>
      {description ? <meta name="description" content={description} /> : ''}
      {head.noindex ? <meta name="robots" content="noindex" /> : ''}
      {canonical ? <link rel="canonical" href={canonical} /> : ''}
      {(head.alternates ?? []).map((alternate) => (
        <link rel="alternate" type={alternate.type} href={alternate.href} />
      ))}
      <meta property="og:site_name" content={helpCenter.name} />
      <meta property="og:title" content={head.title} />
      <meta property="og:type" content={head.ogType ?? 'website'} />
      {canonical ? <meta property="og:url" content={canonical} /> : ''}
      {description ? <meta property="og:description" content={description} /> : ''}
      {head.image ? <meta property="og:image" content={head.image} /> : ''}
      <meta name="twitter:card" content={head.image ? 'summary_large_image' : 'summary'} />
      <meta name="twitter:title" content={head.title} />
      {description ? <meta name="twitter:description" content={description} /> : ''}
      {head.image ? <meta name="twitter:image" content={head.image} /> : ''}
      {safeJsonLd.map((json) => (
        <script type="application/ld+json">{json}</script>
      ))}
    </>
  );
}

export function SearchForm({ address, value, id }: { address: SiteAddress; value?: string; id: string }) {
  return (
    // biome-ignore lint/a11y/useSemanticElements: the <search> element is too new for some readers' browsers; the role says the same
    <form class="search" role="search" action={sitePaths.search(address)} method="get">
      <label class="visually-hidden" for={id}>
        Search articles
      </label>
      <input
        id={id}
        type="search"
        name="q"
        value={value ?? ''}
        placeholder="Search articles"
        maxlength="200"
        autocomplete="off"
      />
      <button type="submit">Search</button>
    </form>
  );
}

function Session({ viewer, address }: { viewer: SiteViewer; address: SiteAddress }) {
  if (!viewer.contact) {
    return '';
  }
  return (
    <div class="session">
      <span safe>{viewer.contact.name ?? viewer.contact.email}</span>
      <form method="post" action={sitePaths.signOut(address)}>
        <button class="link-button" type="submit">
          Sign out
        </button>
      </form>
    </div>
  );
}

export function Layout(props: PropsWithChildren<LayoutProps>) {
  const { helpCenter, address, assets } = props;
  const safeThemeCss = props.themeCss;
  return (
    <>
      {'<!doctype html>'}
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <HeadTags head={props.head} address={address} helpCenter={helpCenter} />
          <link rel="stylesheet" href={assets.css} />
          <style>{safeThemeCss}</style>
          <script src={assets.js} defer></script>
        </head>
        <body>
          <a class="skip-link" href="#main">
            Skip to content
          </a>
          <header class="site-header">
            <div class="wrap">
              <a class="brand" href={sitePaths.home(address)}>
                {helpCenter.theme.hasLogo ? <img src={sitePaths.logo(address)} alt="" /> : ''}
                <span safe>{helpCenter.name}</span>
              </a>
              {props.headerSearch === false ? '' : <SearchForm address={address} id="header-search" />}
              <Session viewer={props.viewer} address={address} />
            </div>
          </header>
          <main id="main" tabindex="-1">
            {props.children}
          </main>
          <footer class="site-footer">
            <div class="wrap">
              {helpCenter.theme.footerLinks.length > 0 ? (
                <nav aria-label="Footer">
                  <ul>
                    {helpCenter.theme.footerLinks.map((link) => (
                      <li>
                        <a href={link.url} safe>
                          {link.label}
                        </a>
                      </li>
                    ))}
                  </ul>
                </nav>
              ) : (
                ''
              )}
              <p>
                <span safe>{helpCenter.name}</span> · Powered by Switchboard
              </p>
            </div>
          </footer>
        </body>
      </html>
    </>
  );
}
