import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { ApiError } from '../api/client';
import { fieldProblemsOf } from './api-field-errors';

/** Where a refused save's message goes when it names no field, and where a 409 waits for the user's choice. */
export const FORM_PROBLEM = 'root.api';
export const FORM_CONFLICT = 'root.conflict';

/** Every path of the form's values (`name`, `dailyConfig`, `dailyConfig.monday`, `options.0.value`…). */
export function fieldPathsOf(values: unknown, prefix = ''): string[] {
  if (values === null || typeof values !== 'object') {
    return prefix ? [prefix] : [];
  }
  const entries = Array.isArray(values) ? values.map((value, index) => [String(index), value] as const) : Object.entries(values);
  const nested = entries.flatMap(([key, value]) => fieldPathsOf(value, prefix ? `${prefix}.${key}` : key));
  return prefix ? [prefix, ...nested] : nested;
}

/**
 * Shows a failed save on the form, keeping what was typed: the API's 400/422 problems beside the
 * fields they name (`apiNames` maps an API path to a form field where the two differ), a 409 as a
 * conflict the page offers to reload or overwrite, anything else above the form.
 */
export function showApiError<Values extends FieldValues>(
  form: UseFormReturn<Values>,
  error: unknown,
  apiNames: Record<string, string> = {},
): void {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof ApiError && error.status === 409) {
    form.setError(FORM_CONFLICT as Path<Values>, { type: 'conflict', message });
    return;
  }
  if (!(error instanceof ApiError) || (error.status !== 400 && error.status !== 422)) {
    form.setError(FORM_PROBLEM as Path<Values>, { type: 'api', message });
    return;
  }
  const names = [...fieldPathsOf(form.getValues()), ...Object.keys(apiNames)];
  const problems = fieldProblemsOf(message, names);
  let focused = false;
  for (const [name, text] of Object.entries(problems.fields)) {
    const field = (apiNames[name] ?? name) as Path<Values>;
    form.setError(field, { type: 'api', message: text }, { shouldFocus: !focused });
    focused = true;
  }
  if (problems.rest.length > 0) {
    form.setError(FORM_PROBLEM as Path<Values>, { type: 'api', message: problems.rest.join('; ') });
  }
}
