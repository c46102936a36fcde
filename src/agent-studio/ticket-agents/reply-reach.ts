import type { AppDeps } from '../../deps.js';
import { getArticle } from '../../help-center/articles/article.service.js';
import { publicCollectionIds } from '../../help-center/collections/collection.visibility.js';
import type { Principal } from '../../lib/principal.js';
import { listMailboxesOf } from '../../platform/mailboxes/mailbox.service.js';
import { listRecentComments } from '../../platform/tickets/comment-threads.service.js';
import type { Ticket } from '../../platform/tickets/ticket.presenter.js';
import { getTicket } from '../../platform/tickets/ticket.service.js';
import type { FinishedRun } from '../runtime/agent-run.presenter.js';
import { KNOWLEDGE_BASE_TOOLS } from '../runtime/run-tools.js';

/**
 * The last check before an agent's answer is emailed to a customer: every ticket identifier,
 * email address and URL in it must come from what that customer may see (the ticket answered and
 * their own tickets, their own address, the published articles anyone may read that the run
 * found, and the organization's own support addresses). A model that obeyed text injected into an
 * email may have put another customer's data into its answer; whatever the tools let through,
 * such an answer goes to a person instead.
 */

/** References in text that could carry someone else's data. */
export interface References {
  /** `DESK-12` and ULIDs: what names a ticket. */
  ticketRefs: string[];
  emails: string[];
  urls: string[];
}

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;
const URL_IN_TEXT = /\bhttps?:\/\/[^\s<>"'`)\]]+/gi;
/** A team identifier and a number, as tickets are named (`WED-5`); looked up before it counts. */
const TICKET_IDENTIFIER = /\b[A-Za-z][A-Za-z0-9]{0,9}-[1-9][0-9]{0,9}\b/g;
const TICKET_ID = /\b[0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{26}\b/g;

/** A URL as compared: lower-case scheme and host, no fragment, no trailing slash or sentence punctuation. */
export function normalizeUrl(raw: string): string {
  const trimmed = raw.replace(/[.,;:!?]+$/, '');
  try {
    const url = new URL(trimmed);
    url.hash = '';
    return url.toString().replace(/\/+$/, '');
  } catch {
    return trimmed.toLowerCase();
  }
}

export function referencesIn(text: string): References {
  const urls = [...text.matchAll(URL_IN_TEXT)].map((match) => normalizeUrl(match[0]));
  // Identifiers and addresses inside a URL are the URL's: it is checked whole.
  const outsideUrls = text.replace(URL_IN_TEXT, ' ');
  return {
    ticketRefs: [
      ...new Set([...outsideUrls.matchAll(TICKET_IDENTIFIER), ...outsideUrls.matchAll(TICKET_ID)].map((match) => match[0])),
    ],
    emails: [...new Set([...outsideUrls.matchAll(EMAIL)].map((match) => match[0].toLowerCase()))],
    urls: [...new Set(urls)],
  };
}

/** What the requester may see, as addresses and URLs; tickets are checked one by one. */
interface Visible {
  emails: Set<string>;
  urls: Set<string>;
}

function addReferences(visible: Visible, text: string | null | undefined): void {
  if (!text) {
    return;
  }
  const found = referencesIn(text);
  for (const email of found.emails) {
    visible.emails.add(email);
  }
  for (const url of found.urls) {
    visible.urls.add(url);
  }
}

/** The ids of the articles the run's knowledge-base searches answered with, and the links they gave. */
function articlesFound(run: FinishedRun): { ids: string[]; urls: string[] } {
  const ids = new Set<string>();
  const urls = new Set<string>();
  for (const call of run.tool_calls) {
    if (!KNOWLEDGE_BASE_TOOLS.has(call.tool_name) || call.error) {
      continue;
    }
    const results = (call.result as { results?: { article_id?: unknown; url?: unknown }[] } | null)?.results;
    for (const result of Array.isArray(results) ? results : []) {
      if (typeof result.article_id === 'string') {
        ids.add(result.article_id);
      }
      if (typeof result.url === 'string') {
        urls.add(result.url);
      }
    }
  }
  return { ids: [...ids], urls: [...urls] };
}

/** Adds the published articles among `ids` that anyone may read: their text and their links. */
async function addPublicArticles(
  deps: AppDeps,
  principal: Principal,
  found: { ids: string[]; urls: string[] },
  visible: Visible,
) {
  const articles = [];
  for (const id of found.ids) {
    const article = await getArticle(deps.db, principal, id).catch(() => null);
    if (article?.publishedVersion && !article.isDeleted) {
      articles.push(article);
    }
  }
  const readable = await publicCollectionIds(
    deps.db,
    principal.organizationId,
    articles.flatMap((article) => article.collections),
  );
  for (const article of articles.filter((candidate) => candidate.collections.some((id) => readable.has(id)))) {
    addReferences(visible, article.publishedVersion?.html);
    addReferences(visible, article.publishedVersion?.description);
    // The link the search gave for it: `/hc/{help center}/articles/{slug}`.
    for (const url of found.urls.filter((candidate) => candidate.endsWith(`/articles/${encodeURIComponent(article.slug)}`))) {
      visible.urls.add(normalizeUrl(url));
    }
  }
}

const MAX_COMMENTS_READ = 200;
const MAX_MAILBOX_PAGES = 10;

async function addSupportAddresses(deps: AppDeps, principal: Principal, visible: Visible) {
  let cursor: string | undefined;
  for (let page = 0; page < MAX_MAILBOX_PAGES; page++) {
    const mailboxes = await listMailboxesOf(deps.db, principal, { limit: 100, ...(cursor ? { cursor } : {}) });
    // An unverified address is not yet the organization's own: it may be another's.
    for (const mailbox of mailboxes.items.filter((item) => item.verification.status === 'verified')) {
      visible.emails.add(mailbox.address.toLowerCase());
    }
    if (!mailboxes.nextCursor) {
      return;
    }
    cursor = mailboxes.nextCursor;
  }
}

/** Whether `ref` names a ticket other than the requester's own; refs naming no ticket are plain words. */
async function namesOthersTicket(deps: AppDeps, principal: Principal, ticket: Ticket, ref: string): Promise<boolean> {
  const named = await getTicket(deps.db, principal, ref).catch(() => null);
  if (!named || named.id === ticket.id) {
    return false;
  }
  return ticket.customerContactId === null || named.customerContactId !== ticket.customerContactId;
}

/**
 * Null when every reference in `answer` is the requester's to see; otherwise why not, naming the
 * kind of reference (never its value, which may be the very data that must not spread).
 */
export async function replyReachProblem(
  deps: AppDeps,
  principal: Principal,
  ticket: Ticket,
  run: FinishedRun,
  answer: string,
): Promise<string | null> {
  const references = referencesIn(answer);
  if (references.ticketRefs.length + references.emails.length + references.urls.length === 0) {
    return null;
  }
  const visible: Visible = { emails: new Set(), urls: new Set() };
  if (ticket.requestorEmail) {
    visible.emails.add(ticket.requestorEmail.toLowerCase());
  }
  addReferences(visible, ticket.title);
  addReferences(visible, ticket.description);
  const comments = await listRecentComments(deps.db, principal, ticket.id, { limit: MAX_COMMENTS_READ, includePrivate: false });
  for (const comment of comments) {
    addReferences(visible, comment.content);
  }
  await addPublicArticles(deps, principal, articlesFound(run), visible);
  await addSupportAddresses(deps, principal, visible);

  const problems: string[] = [];
  const others = [];
  for (const ref of references.ticketRefs) {
    if (await namesOthersTicket(deps, principal, ticket, ref)) {
      others.push(ref);
    }
  }
  if (others.length > 0) {
    problems.push(`${others.length} reference(s) to another customer’s ticket`);
  }
  const emails = references.emails.filter((email) => !visible.emails.has(email));
  if (emails.length > 0) {
    problems.push(`${emails.length} email address(es) the customer has not been shown`);
  }
  const urls = references.urls.filter((url) => !visible.urls.has(url));
  if (urls.length > 0) {
    problems.push(`${urls.length} link(s) that are not in the ticket or a published article`);
  }
  return problems.length > 0
    ? `The agent’s answer was not sent: it contains ${problems.join(', ')}. A person should check it before anything is sent.`
    : null;
}
