/**
 * A macro reply's placeholders, written once for the API, which checks them when a macro is saved
 * and fills them when it is applied (`platform/macros/`), and the console, which fills them when an
 * agent inserts a macro into the composer where it can still be edited. The rules: `{{ name }}`
 * with spaces allowed inside the braces, a missing value renders as nothing, and each value is
 * escaped as markdown text so a ticket title such as `[click](https://evil.example)` cannot add a
 * link to the reply.
 */

/**
 * The placeholders a macro's reply may use, with what each stands for. Values come from the
 * ticket as it is when the macro is applied, before its actions change it; a value that is not
 * there (a requestor without a last name) renders as nothing. The order is the one the API's
 * descriptions and error messages list them in.
 */
export const MACRO_PLACEHOLDERS = {
  'ticket.id': 'The ticket id (ULID)',
  'ticket.identifier': 'The ticket identifier, e.g. BILL-12',
  'ticket.title': 'The ticket title',
  'ticket.status': 'The ticket status, e.g. Open',
  'ticket.priority': 'The ticket priority, e.g. High',
  'ticket.team': 'The name of the ticket team',
  'ticket.assignee': 'The name of the assigned agent',
  'requestor.firstName': 'The first name of the requestor (their customer contact)',
  'requestor.lastName': 'The last name of the requestor',
  'requestor.name': 'First and last name of the requestor',
  'requestor.email': 'The email address of the requestor',
  'agent.name': 'The name of the agent applying the macro',
  'agent.email': 'The email address of the agent applying the macro',
} as const;

export type MacroPlaceholder = keyof typeof MACRO_PLACEHOLDERS;
export type MacroPlaceholderValues = Record<MacroPlaceholder, string | null>;

/** `{{ name }}`: a placeholder, spaces inside the braces allowed. Anything else stays text. */
const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;

export function isMacroPlaceholder(name: string): name is MacroPlaceholder {
  return Object.hasOwn(MACRO_PLACEHOLDERS, name);
}

/** The names of the placeholders `template` uses, in order, as written between the braces (trimmed). */
export function placeholderNames(template: string): string[] {
  return [...template.matchAll(PLACEHOLDER)].map((match) => match[1] ?? '');
}

/**
 * Text that markdown renders as itself: line breaks become spaces (a value cannot start a block),
 * and every ASCII punctuation character is backslash-escaped, which CommonMark defines for all of
 * them; this also stops GFM from turning a URL or an email address into a link.
 */
export function escapeMarkdownText(value: string): string {
  return value.replace(/\s+/g, ' ').replace(/[!-/:-@[-`{-~]/g, '\\$&');
}

/**
 * The template with each placeholder replaced by its value escaped as markdown text. The template
 * itself is the macro author's markdown. A placeholder without an entry in `values` is kept as
 * written (`unknown: 'keep'`, the console: the API refuses unknown ones when a macro is saved, so
 * none should exist) or renders as nothing (`'blank'`, the API's reply).
 */
export function fillPlaceholders(
  template: string,
  values: Partial<Record<string, string | null>>,
  unknown: 'keep' | 'blank' = 'keep',
): string {
  return template.replace(PLACEHOLDER, (match, name: string) => {
    if (Object.hasOwn(values, name)) {
      return escapeMarkdownText(values[name] ?? '');
    }
    return unknown === 'keep' ? match : '';
  });
}

/** What the placeholders stand for: the ticket as shown, its requestor and the agent applying the macro. */
export interface MacroPlaceholderSource {
  ticket: {
    id: string;
    identifier: string;
    title: string;
    status: string | null;
    priority: string | null;
    team: string | null;
    assignee: string | null;
  };
  requestor: { firstName: string | null; lastName: string | null; email: string };
  agent: { name: string | null; email: string | null };
}

/** Every placeholder's value; the requestor's name is their first and last name, else their email address. */
export function macroPlaceholderValues({ ticket, requestor, agent }: MacroPlaceholderSource): MacroPlaceholderValues {
  const requestorName = [requestor.firstName, requestor.lastName].filter(Boolean).join(' ');
  return {
    'ticket.id': ticket.id,
    'ticket.identifier': ticket.identifier,
    'ticket.title': ticket.title,
    'ticket.status': ticket.status,
    'ticket.priority': ticket.priority,
    'ticket.team': ticket.team,
    'ticket.assignee': ticket.assignee,
    'requestor.firstName': requestor.firstName,
    'requestor.lastName': requestor.lastName,
    'requestor.name': requestorName || requestor.email,
    'requestor.email': requestor.email,
    'agent.name': agent.name,
    'agent.email': agent.email,
  };
}
