import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import type { SiteHelpCenter, SiteViewer } from './site.service.js';
import type { SiteAddress } from './site-address.js';
import { assetUrls } from './site-assets.js';
import { themeColors } from './theme-colors.js';
import { Layout, type PageHead } from './views/layout.js';

/** Who a page is for and where it lives: what every page of a help center renders with. */
export interface SiteContext {
  helpCenter: SiteHelpCenter;
  viewer: SiteViewer;
  address: SiteAddress;
}

export interface RenderedPage {
  status: number;
  html: string;
  /** The hash of the page's inline `<style>`, for its Content-Security-Policy. */
  styleHash: string;
}

function themeCssOf(helpCenter: SiteHelpCenter): string {
  const colors = themeColors(helpCenter.theme.primaryColor);
  return `:root{--brand:${colors.brand};--brand-on:${colors.brandOn};--link-light:${colors.link};--link-dark:${colors.linkDark}}`;
}

export async function renderSitePage(
  context: SiteContext,
  head: PageHead,
  body: JSX.Element,
  options: { status?: number; headerSearch?: boolean } = {},
): Promise<RenderedPage> {
  const themeCss = themeCssOf(context.helpCenter);
  const html = await (
    <Layout
      helpCenter={context.helpCenter}
      viewer={context.viewer}
      address={context.address}
      assets={assetUrls()}
      head={head}
      themeCss={themeCss}
      headerSearch={options.headerSearch}
    >
      {body}
    </Layout>
  );
  return {
    status: options.status ?? 200,
    html,
    styleHash: `sha256-${createHash('sha256').update(themeCss).digest('base64')}`,
  };
}

/**
 * Headers of every page: nothing of another origin loads (images of articles excepted, which
 * authors link), the page cannot be framed, forms post only to the site itself.
 */
export function pageHeaders(page: Pick<RenderedPage, 'styleHash'>): Record<string, string> {
  return {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': [
      "default-src 'none'",
      `style-src 'self' '${page.styleHash}'`,
      "script-src 'self'",
      "img-src 'self' https: data:",
      "connect-src 'self'",
      "form-action 'self'",
      "frame-ancestors 'none'",
      "base-uri 'none'",
    ].join('; '),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
  };
}

export function sendPage(reply: FastifyReply, page: RenderedPage, extraHeaders: Record<string, string> = {}) {
  return reply
    .code(page.status)
    .headers({ ...pageHeaders(page), ...extraHeaders })
    .send(page.html);
}
