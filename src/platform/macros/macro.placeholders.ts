import { AppError } from '../../lib/errors.js';
import {
  fillPlaceholders,
  isMacroPlaceholder,
  MACRO_PLACEHOLDERS,
  type MacroPlaceholderValues,
  placeholderNames,
} from '../../shared/macro-placeholders.js';

/** The placeholders' names in their order, as the error below lists them. */
const KNOWN = Object.keys(MACRO_PLACEHOLDERS);

/** Every placeholder of `template` must be a known one: the first unknown is a 400 naming it and `field`. */
export function checkPlaceholders(template: string, field: string): void {
  for (const name of placeholderNames(template)) {
    if (!isMacroPlaceholder(name)) {
      throw AppError.invalid(
        `${field} uses an unknown placeholder {{${name}}}; known placeholders: ${KNOWN.map((known) => `{{${known}}}`).join(', ')}`,
        { location: 'body', path: [field], rule: 'placeholder', params: { placeholder: name } },
      );
    }
  }
}

/**
 * The reply of a macro as the API posts it: each placeholder replaced by its value escaped as
 * markdown text (`shared/macro-placeholders.ts`), so a ticket title such as `# Urgent` shows as
 * written; a placeholder the macro should not hold renders as nothing.
 */
export function renderPlaceholders(template: string, values: MacroPlaceholderValues): string {
  return fillPlaceholders(template, values, 'blank');
}
