import { slugify } from '../src/help-center/help-centers/help-center.slug.js';
import { seededRandom } from './random.js';

/**
 * The articles of the help-center datasets: each one made from its number alone (the same number
 * always gives the same article), in the words of a software product's help center, so that
 * searches for realistic terms match a realistic share of the articles (a topic's words are in
 * its own articles and mentioned in a few others), and pages are of a realistic length.
 */

const SUBJECTS = [
  'password',
  'invoice',
  'subscription',
  'refund',
  'export',
  'webhook',
  'API key',
  'two-factor authentication',
  'team member',
  'billing address',
  'payment method',
  'notification',
  'integration',
  'report',
  'dashboard',
  'import',
  'single sign-on',
  'mobile app',
  'data retention',
  'custom domain',
  'email forwarding',
  'calendar sync',
  'permission',
  'workspace',
  'audit log',
  'backup',
  'plan',
  'receipt',
  'tax ID',
  'Slack channel',
] as const;

const ACTIONS = [
  'How to set up your',
  'How to change your',
  'Troubleshooting your',
  'Understanding the',
  'How to remove a',
  "Why can't I see my",
  'Getting started with the',
  'How to update your',
  'Limits of the',
  'What happens to your',
] as const;

const CONTEXTS = [
  '',
  ' on the mobile app',
  ' for your team',
  ' in the console',
  ' with the API',
  ' on the Business plan',
  ' after moving workspaces',
  ' from a spreadsheet',
] as const;

/** What the bench searches for: single words and pairs, common and rare, as readers type them. */
export const SEARCH_TERMS = [
  'reset password',
  'invoice',
  'refund',
  'export csv',
  'webhook retries',
  'two-factor',
  'cancel subscription',
  'custom domain',
  'single sign-on',
  'audit log',
  'mobile notifications',
  'payment method',
  'tax ID',
  'slack',
  'backup restore',
  'billing address',
  'calendar sync',
  'team member permissions',
  'data retention policy',
  'import spreadsheet',
  'api key rotate',
  'dashboard report',
  'email forwarding',
  'workspace owner',
  'receipt download',
] as const;

const pick = <T>(random: () => number, items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;

export interface GeneratedArticle {
  title: string;
  description: string;
  /** Sanitised HTML as the editor stores it: headings, paragraphs, a numbered list, code. */
  html: string;
  /** What the search index holds: the description and the text of the HTML. */
  searchBody: string;
}

function sentences(random: () => number, subject: string, other: string): string[] {
  return [
    `Your ${subject} settings are in the console under Settings, where an administrator of the workspace can change them at any time.`,
    `If the ${subject} does not appear, check that your plan includes it and that your role has the permission to manage it.`,
    `Changes to the ${subject} apply to every team member within a few minutes; nobody needs to sign out and in again.`,
    `Some customers also connect the ${subject} to their ${other}, which keeps both up to date without extra work.`,
    `The mobile app shows the same ${subject} as the web console, and notifications tell you when it changes.`,
    `When you export your data, the ${subject} is included in the archive as a CSV file, one row per entry.`,
    `Our support team can help when the ${subject} looks wrong: send us the time it happened and a screenshot.`,
    `Deleted entries of the ${subject} are kept for thirty days under the data retention policy, then removed for good.`,
  ].filter(() => random() < 0.8);
}

/** The article numbered `index` (0-based) of a dataset. */
export function generatedArticle(index: number): GeneratedArticle {
  const random = seededRandom(index + 1);
  const subject = SUBJECTS[index % SUBJECTS.length] as string;
  const others = [pick(random, SUBJECTS), pick(random, SUBJECTS), pick(random, SUBJECTS)];
  const title = `${pick(random, ACTIONS)} ${subject}${pick(random, CONTEXTS)}`;
  const description = `What to know about the ${subject}, step by step, and what to do when it does not work as expected.`;
  const overview = sentences(random, subject, others[0] as string);
  const troubleshooting = sentences(random, subject, others[1] as string);
  const steps = [
    'Open the console and sign in as an administrator.',
    `Go to <strong>Settings</strong> and choose <strong>${subject}</strong>.`,
    `Make your change and select <strong>Save</strong>; the ${others[2]} is updated as well.`,
    'Check the audit log to confirm who changed what, and when.',
  ];
  const html = [
    `<p>${description}</p>`,
    '<h2>Overview</h2>',
    ...overview.map((text) => `<p>${text}</p>`),
    '<h2>Step by step</h2>',
    `<ol>${steps.map((step) => `<li>${step}</li>`).join('')}</ol>`,
    `<p>With the API, the same change is one request: <code>PATCH /v1/settings/${slugify(subject, 'setting')}</code>.</p>`,
    '<h2>Troubleshooting</h2>',
    ...troubleshooting.map((text) => `<p>${text}</p>`),
    '<h3>Still stuck?</h3>',
    `<p>Contact our support team and mention this article; we answer within one business day.</p>`,
  ].join('\n');
  const text = html
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return { title, description, html, searchBody: `${description}\n\n${text}` };
}

/** `<uid>-<kebab-title>`, as the application makes an article's slug. */
export const articleSlugOf = (uid: number, title: string) => `${uid}-${slugify(title, 'article')}`;
