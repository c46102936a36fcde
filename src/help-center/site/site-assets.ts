import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { PROJECT_ROOT } from '../../project-root.js';

/**
 * The stylesheet and script every page links, read once. Their addresses carry a hash of their
 * content, so browsers and CDNs keep them for a year and a new release is fetched at once.
 */
export interface SiteAsset {
  name: string;
  contentType: string;
  body: Buffer;
  hash: string;
}

const ASSETS_FOLDER = new URL('src/help-center/site/assets/', PROJECT_ROOT);

export const SITE_ASSETS_PREFIX = '/hc-assets';

function readAsset(file: string, contentType: string): SiteAsset {
  const body = readFileSync(new URL(file, ASSETS_FOLDER));
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 12);
  const [stem, extension] = file.split('.');
  return { name: `${stem}.${hash}.${extension}`, contentType, body, hash };
}

let loaded: { css: SiteAsset; js: SiteAsset } | undefined;

export function siteAssets(): { css: SiteAsset; js: SiteAsset } {
  loaded ??= {
    css: readAsset('site.css', 'text/css; charset=utf-8'),
    js: readAsset('site.js', 'text/javascript; charset=utf-8'),
  };
  return loaded;
}

export function assetUrls(): { css: string; js: string } {
  const { css, js } = siteAssets();
  return { css: `${SITE_ASSETS_PREFIX}/${css.name}`, js: `${SITE_ASSETS_PREFIX}/${js.name}` };
}
