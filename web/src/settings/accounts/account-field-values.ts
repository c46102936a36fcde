import type { AccountField } from './account-queries';

/** The text an input shows for a stored value (a list's options joined for checkbox groups is not needed: they are kept as lists). */
export function textOf(value: unknown): string {
  return value === null || value === undefined ? '' : Array.isArray(value) ? '' : String(value);
}

const NUMBER_TYPES: readonly AccountField['fieldType'][] = ['integer', 'decimal', 'currency'];
export const MULTI_TYPES: readonly AccountField['fieldType'][] = ['multi_choice', 'checkbox'];
export const SINGLE_CHOICE_TYPES: readonly AccountField['fieldType'][] = ['single_choice', 'radio_button'];

export const INPUT_TYPES: Partial<Record<AccountField['fieldType'], string>> = {
  integer: 'number',
  decimal: 'number',
  currency: 'number',
  date: 'date',
  time: 'time',
  email: 'email',
  phone_number: 'tel',
  url: 'url',
};

/** What the API takes for a field's input: numbers as numbers, empty as null (which clears the value). */
export function apiValueOf(field: AccountField, input: string | string[]): unknown {
  if (Array.isArray(input)) {
    return input.length === 0 ? null : input;
  }
  if (input.trim() === '') {
    return null;
  }
  if (NUMBER_TYPES.includes(field.fieldType)) {
    const number = Number(input);
    return Number.isFinite(number) ? number : input;
  }
  return input;
}
