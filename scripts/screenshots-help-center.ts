import type { Browser, Page } from 'playwright-core';
import { apiOf, signInAsDemoAdmin } from './screenshots-settings.js';
import type { ApiCall } from './screenshots-widget.js';

/**
 * An article with the sections, list, code and note a real guide has, so the article page shows its
 * table of contents. The demo's own articles are a paragraph each, as an AI agent's sources are.
 */
const DESKTOP_APP_GUIDE = `
<p>The desktop app adds Lumen as a printer on your computer, so every program prints through your
office's queue, from anywhere: the job waits on Lumen until you release it at a printer.</p>
<h2>Before you start</h2>
<ul>
<li>A Lumen account on the <strong>Team</strong> or <strong>Business</strong> plan.</li>
<li>Windows 10 or later, or macOS 13 or later.</li>
<li>Permission to install software on the computer (ask your IT team if you are unsure).</li>
</ul>
<h2>Install on Windows</h2>
<ol>
<li>Download the installer from <strong>Settings → Apps</strong> in the Lumen dashboard.</li>
<li>Run <code>lumen-setup.exe</code> and keep the defaults.</li>
<li>Sign in with your Lumen account when the app opens.</li>
</ol>
<h3>Install on many computers at once</h3>
<p>IT teams can install the app silently from a deployment tool:</p>
<pre><code>lumen-setup.exe /S /ORG=your-organization</code></pre>
<h2>Install on macOS</h2>
<ol>
<li>Open <code>Lumen.dmg</code> and drag Lumen to <strong>Applications</strong>.</li>
<li>Open Lumen and allow it in <strong>System Settings → Printers &amp; Scanners</strong>.</li>
</ol>
<blockquote><p>Printing from a phone? The Lumen app for iOS and Android releases jobs with the same account.</p></blockquote>
<h2>Check that it works</h2>
<p>Print any page to the <strong>Lumen</strong> printer, then open the dashboard: the job is listed under
<strong>My jobs</strong> until you release it.</p>
`;

interface HelpCenterRow {
  _id: string;
  name: string;
  slug: string;
}

/**
 * The public help center of the README: the demo's help center, given a description, a brand
 * colour, footer links and one longer guide through the help-center API (with an API key the demo admin makes for it), then
 * its home, a collection and the guide in the light theme and a search in the dark one.
 */
export async function shootHelpCenter(
  browser: Browser,
  origin: string,
  shoot: (name: string, page: Page) => Promise<void>,
): Promise<{ api: ApiCall; helpCenter: HelpCenterRow }> {
  const api = await helpCenterApiOf(browser, origin);
  const helpCenters = await api<HelpCenterRow[]>('GET', '/help-centers');
  const helpCenter = helpCenters.find((row) => row.name === 'Lumen Help Center');
  if (!helpCenter) {
    throw new Error('the demo organization has no Lumen Help Center');
  }
  await api('PATCH', `/help-centers/${helpCenter._id}`, {
    meta: { description: 'Guides and answers from the Lumen team: printers, accounts and billing.' },
    theme: {
      primaryColor: '#0f766e',
      footerLinks: [
        { label: 'System status', url: 'https://status.lumen.example' },
        { label: 'Privacy', url: 'https://lumen.example/privacy' },
      ],
    },
  });
  const collections = await api<{ _id: string; name: string }[]>('GET', `/collections?helpCenterId=${helpCenter._id}`);
  const gettingStarted = collections.find((collection) => collection.name === 'Getting started');
  if (!gettingStarted) {
    throw new Error('the demo help center has no Getting started collection');
  }
  const guide = await api<{ _id: string; slug: string }>('POST', '/articles', {
    collectionId: gettingStarted._id,
    title: 'Installing the Lumen desktop app',
    description: 'Print from any program on Windows and macOS',
    contentHtml: DESKTOP_APP_GUIDE,
  });
  await api('POST', `/articles/${guide._id}/publish`);

  const base = `/hc/${helpCenter.slug}`;
  for (const colorScheme of ['light', 'dark'] as const) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme, baseURL: origin });
    const page = await context.newPage();
    try {
      if (colorScheme === 'light') {
        await page.goto(`${base}/`);
        await shoot('help-center', page);
        await page.getByRole('link', { name: 'Getting started' }).click();
        await page.getByRole('heading', { level: 1, name: 'Getting started' }).waitFor();
        await shoot('help-center-collection', page);
        await page.getByRole('link', { name: 'Installing the Lumen desktop app' }).click();
        await page.getByRole('navigation', { name: 'On this page' }).waitFor();
        await shoot('help-center-article', page);
      } else {
        await page.goto(`${base}/search?q=plan`);
        await page.getByRole('heading', { level: 1, name: 'Search results' }).waitFor();
        await shoot('help-center-search-dark', page);
      }
    } finally {
      await context.close();
    }
  }
  return { api, helpCenter };
}

/** The help-center API takes API keys only: the signed-in demo admin makes one, as the API keys page would. */
async function helpCenterApiOf(browser: Browser, origin: string): Promise<ApiCall> {
  const context = await browser.newContext({ baseURL: origin });
  let apiKey: string;
  try {
    const page = await context.newPage();
    await signInAsDemoAdmin(page);
    const call = apiOf(page);
    const me = await call<{ user: { id: string } }>('GET', '/v1/users/me');
    apiKey = (await call<{ apiKey: string }>('POST', `/v1/users/${me.user.id}/api-keys`, { name: 'Help center screenshots' }))
      .apiKey;
  } finally {
    await context.close();
  }
  return async <T = unknown>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${origin}${path}`, {
      method,
      headers: { 'x-api-key': apiKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) {
      throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
    }
    // The help-center API wraps its answers in `data`; the agent studio's are the resource itself.
    const answer = (await response.json()) as { data?: T } & T;
    return answer.data ?? answer;
  };
}
