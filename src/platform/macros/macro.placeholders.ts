import { AppError } from '../../lib/errors.js';

/**
 * The placeholders a macro's reply may use, with what each stands for. Values come from the
 * ticket as it is when the macro is applied, before its actions change it; a value that is not
 * there (a requestor without a last name) renders as nothing.
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

const KNOWN = new Set<string>(Object.keys(MACRO_PLACEHOLDERS));

/** `{{ name }}`: a placeholder, spaces inside the braces allowed. Anything else stays text. */
const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;

/** Every placeholder of `template` must be a known one: the first unknown is a 400 naming it and `field`. */
export function checkPlaceholders(template: string, field: string): void {
  for (const match of template.matchAll(PLACEHOLDER)) {
    const name = match[1] ?? '';
    if (!KNOWN.has(name)) {
      throw AppError.invalid(
        `${field} uses an unknown placeholder {{${name}}}; known placeholders: ${[...KNOWN].map((known) => `{{${known}}}`).join(', ')}`,
        { location: 'body', path: [field], rule: 'placeholder', params: { placeholder: name } },
      );
    }
  }
}

/**
 * The template with each placeholder replaced by its value escaped as markdown text, so a ticket
 * title such as `[click](https://evil.example)` or `# Urgent` shows as written and cannot add a
 * link, an image, HTML or a heading to the reply. The template itself is the macro author's markdown.
 */
export function renderPlaceholders(template: string, values: Record<MacroPlaceholder, string | null>): string {
  return template.replace(PLACEHOLDER, (_match, name: string) => escapeMarkdownText(values[name as MacroPlaceholder] ?? ''));
}

/**
 * Text that markdown renders as itself: line breaks become spaces (a value cannot start a block),
 * and every ASCII punctuation character is backslash-escaped, which CommonMark defines for all of
 * them; this also stops GFM from turning a URL or an email address into a link.
 */
export function escapeMarkdownText(value: string): string {
  return value.replace(/\s+/g, ' ').replace(/[!-/:-@[-`{-~]/g, '\\$&');
}
