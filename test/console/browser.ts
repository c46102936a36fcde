import { existsSync } from 'node:fs';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

/** Debian's Chromium (`apt-get install chromium`; `.ci/run` installs it): never a downloaded browser. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * The features playwright-core turns off, but third-party storage partitioning. Playwright turns that
 * off too, and this Chromium blocks third-party cookies and unpartitioned storage, so a cross-site
 * iframe (the messenger's panel on a customer's page) would get no localStorage at all, where
 * browsers as shipped give it storage of its own per top-level site. Chromium reads only the last
 * `--disable-features`, so the list is repeated here without it.
 */
const DISABLED_FEATURES_BUT_PARTITIONING = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
];

/**
 * Headless Chromium as the machine has it. The network flags keep it from calling Google's
 * services at start, which a closed network refuses many times over. `partitionedStorage`: third-party
 * frames get partitioned storage, as in browsers as shipped (see above).
 */
export async function launchChromium(options: { partitionedStorage?: boolean } = {}): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium is not installed at ${CHROMIUM}: apt-get install chromium (or set CHROMIUM_PATH)`);
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
      ...(options.partitionedStorage ? [`--disable-features=${DISABLED_FEATURES_BUT_PARTITIONING.join(',')}`] : []),
    ],
  });
}

export interface ConsolePage {
  context: BrowserContext;
  page: Page;
  /** Every request the page made to another origin than the console's: the test expects none. */
  foreignRequests: string[];
  /** Uncaught errors and console errors of the page. */
  pageErrors: string[];
}

/** A fresh browser profile (no cookies, cold cache) on the console's origin. */
export async function openConsole(
  browser: Browser,
  origin: string,
  options: { viewport?: { width: number; height: number }; colorScheme?: 'light' | 'dark' } = {},
): Promise<ConsolePage> {
  const context = await browser.newContext({
    viewport: options.viewport ?? { width: 1280, height: 800 },
    colorScheme: options.colorScheme ?? 'light',
    baseURL: origin,
  });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  const foreignRequests: string[] = [];
  const pageErrors: string[] = [];
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(origin) && !url.startsWith('data:') && !url.startsWith('blob:')) {
      foreignRequests.push(url);
    }
  });
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') {
      pageErrors.push(message.text());
    }
  });
  return { context, page, foreignRequests, pageErrors };
}
