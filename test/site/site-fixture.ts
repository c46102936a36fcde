import type { ConsoleServer } from '../console/console-server.js';

/** A published help center as the browser tests read it: its address and the pages they open. */
export interface SiteFixture {
  helpCenterId: string;
  /** `/hc/{slug}`, without the final slash. */
  base: string;
  collections: { gettingStarted: string; billing: string };
  articles: { install: ArticleRef; refunds: ArticleRef; plans: ArticleRef };
}

export interface ArticleRef {
  id: string;
  title: string;
  /** The article's page, `/hc/{slug}/articles/{uid}-{kebab}`. */
  path: string;
}

/**
 * An article long enough to scroll, with the headings that make its table of contents. The
 * sections are padded with paragraphs so that each heading starts below the first screen; the
 * macOS section's link is where the keyboard goes next after its table-of-contents entry.
 */
const INSTALL_HTML = [
  '<p>The desktop app prints from any program on your computer through Lumen.</p>',
  '<h2>Before you start</h2>',
  ...Array.from({ length: 6 }, (_, i) => `<p>Check item ${i + 1}: an administrator account and a supported system.</p>`),
  '<h2>On Windows</h2>',
  ...Array.from({ length: 6 }, (_, i) => `<p>Step ${i + 1} of the Windows installer: choose Next and keep the defaults.</p>`),
  '<h3>Silent install</h3>',
  '<p>Run <code>lumen-setup.exe /S</code> to install without questions, for example from a deployment tool.</p>',
  '<h2>On macOS</h2>',
  '<p>Read <a href="https://lumen.example/requirements">the system requirements</a> first.</p>',
  ...Array.from({ length: 8 }, (_, i) => `<p>Step ${i + 1} on macOS: open the disk image and drag Lumen to Applications.</p>`),
].join('');

/**
 * Makes, through the help-center API with the server's admin key, a help center named `name` with
 * two collections and three published articles (and a draft), so each test file has data of its own.
 */
export async function seedSite(server: ConsoleServer, name: string): Promise<SiteFixture> {
  const helpCenter = await server.call<{ _id: string; slug: string }>('POST', '/help-centers', {
    name,
    meta: { description: 'Answers from the Lumen team: printers, accounts and billing.' },
  });
  const collection = (body: object) =>
    server.call<{ _id: string; uid: number; slug: string }>('POST', '/collections', { helpCenterId: helpCenter._id, ...body });
  const gettingStarted = await collection({ name: 'Getting started', description: 'Set up Lumen', icon: 'rocket' });
  const billing = await collection({ name: 'Billing', description: 'Plans, invoices and refunds', icon: 'credit-card' });
  const base = `/hc/${helpCenter.slug}`;
  const publish = async (collectionId: string, title: string, description: string, contentHtml: string) => {
    const created = await server.call<{ _id: string; slug: string }>('POST', '/articles', {
      collectionId,
      title,
      description,
      contentHtml,
    });
    await server.call('POST', `/articles/${created._id}/publish`);
    return { id: created._id, title, path: `${base}/articles/${created.slug}` };
  };
  const install = await publish(gettingStarted._id, 'Install the desktop app', 'Windows and macOS', INSTALL_HTML);
  const refunds = await publish(
    billing._id,
    'Refund policy',
    'When and how we refund',
    '<p>We refund duplicate charges in full, at once. Annual plans cancelled within 30 days are refunded pro rata.</p>',
  );
  const plans = await publish(
    billing._id,
    'Changing your plan',
    'Upgrades and downgrades',
    '<p>Upgrades take effect at once and are prorated to the day. Downgrades wait for the renewal.</p>',
  );
  await server.call('POST', '/articles', {
    collectionId: billing._id,
    title: 'Draft about invoices',
    contentHtml: '<p>Not published.</p>',
  });
  return {
    helpCenterId: helpCenter._id,
    base,
    collections: {
      gettingStarted: `${base}/collections/${gettingStarted.uid}-${gettingStarted.slug}`,
      billing: `${base}/collections/${billing.uid}-${billing.slug}`,
    },
    articles: { install, refunds, plans },
  };
}
