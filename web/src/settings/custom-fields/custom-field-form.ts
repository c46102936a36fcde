import { z } from 'zod';
import type { BodyOf } from '../../api/types';
import type { CustomField } from './custom-field-queries';

export type FieldType = CustomField['fieldType'];
export type FieldSource = CustomField['source'];
type FieldUpdates = BodyOf<'/v1/custom-field', 'patch'>['fields'][number]['updates'];
type FieldCreate = BodyOf<'/v1/custom-field', 'post'>;

export const FIELD_TYPES: readonly { value: FieldType; label: string }[] = [
  { value: 'single_line', label: 'Single line text' },
  { value: 'multi_line', label: 'Multi-line text' },
  { value: 'rich_text', label: 'Rich text' },
  { value: 'single_choice', label: 'Dropdown (one choice)' },
  { value: 'multi_choice', label: 'Dropdown (several choices)' },
  { value: 'radio_button', label: 'Radio buttons' },
  { value: 'checkbox', label: 'Checkboxes' },
  { value: 'integer', label: 'Whole number' },
  { value: 'decimal', label: 'Decimal number' },
  { value: 'currency', label: 'Currency' },
  { value: 'date', label: 'Date' },
  { value: 'date_time', label: 'Date and time' },
  { value: 'time', label: 'Time' },
  { value: 'email', label: 'Email' },
  { value: 'phone_number', label: 'Phone number' },
  { value: 'url', label: 'URL' },
];

export const FIELD_SOURCES: readonly { value: FieldSource; label: string }[] = [
  { value: 'ticket', label: 'Tickets' },
  { value: 'account', label: 'Accounts' },
  { value: 'customer_contact', label: 'Contacts' },
  { value: 'custom_object', label: 'Custom objects' },
];

const CHOICE_TYPES: readonly FieldType[] = ['single_choice', 'multi_choice', 'radio_button', 'checkbox'];
const TEXT_TYPES: readonly FieldType[] = ['single_line', 'multi_line', 'rich_text', 'email', 'phone_number', 'url'];

/** Types whose values are picked from the field's choices. */
export const isChoiceType = (type: FieldType) => CHOICE_TYPES.includes(type);
/** Types a pattern makes sense for (the API accepts one on any type; the form offers it where people type text). */
export const isTextType = (type: FieldType) => TEXT_TYPES.includes(type);

export const fieldTypeLabel = (type: FieldType) => FIELD_TYPES.find((option) => option.value === type)?.label ?? type;
export const fieldSourceLabel = (source: FieldSource) => FIELD_SOURCES.find((option) => option.value === source)?.label ?? source;

/**
 * The form's own checks: what a person can fix before asking the API. The API stays the judge
 * (a pattern that does not compile, a default that is not a choice): its words show beside the field.
 */
export const fieldFormSchema = z
  .object({
    name: z.string().trim().min(1, 'Give the field a name').max(255, 'At most 255 characters'),
    description: z.string().max(2000, 'At most 2,000 characters'),
    fieldType: z.enum(FIELD_TYPES.map((option) => option.value) as [FieldType, ...FieldType[]]),
    source: z.enum(FIELD_SOURCES.map((option) => option.value) as [FieldSource, ...FieldSource[]]),
    teamId: z.string(),
    options: z.array(z.object({ value: z.string().trim().min(1, 'Type the choice or remove it').max(255) })),
    regexForValidation: z.string().max(500, 'At most 500 characters'),
    defaultValue: z.string().max(2000, 'At most 2,000 characters'),
    placeholderText: z.string().max(500, 'At most 500 characters'),
    hintText: z.string().max(500, 'At most 500 characters'),
    isActive: z.boolean(),
    mandatoryOnCreation: z.boolean(),
    mandatoryOnClose: z.boolean(),
    visibleToCustomer: z.boolean(),
    editableByCustomer: z.boolean(),
  })
  .superRefine((values, context) => {
    if (isChoiceType(values.fieldType) && values.options.length === 0) {
      context.addIssue({ code: 'custom', path: ['options'], message: 'Add at least one choice' });
    }
  });

export type FieldFormValues = z.infer<typeof fieldFormSchema>;

export const NEW_FIELD: FieldFormValues = {
  name: '',
  description: '',
  fieldType: 'single_line',
  source: 'ticket',
  teamId: '',
  options: [],
  regexForValidation: '',
  defaultValue: '',
  placeholderText: '',
  hintText: '',
  isActive: true,
  mandatoryOnCreation: false,
  mandatoryOnClose: false,
  visibleToCustomer: false,
  editableByCustomer: false,
};

/** The form's values for a stored field (absent texts as empty inputs). */
export function formValuesOf(field: CustomField): FieldFormValues {
  return {
    name: field.name,
    description: field.description ?? '',
    fieldType: field.fieldType,
    source: field.source,
    teamId: field.teamId ?? '',
    options: field.options.map((value) => ({ value })),
    regexForValidation: field.regexForValidation ?? '',
    defaultValue: field.defaultValue ?? '',
    placeholderText: field.placeholderText ?? '',
    hintText: field.hintText ?? '',
    isActive: field.isActive,
    mandatoryOnCreation: field.mandatoryOnCreation,
    mandatoryOnClose: field.mandatoryOnClose,
    visibleToCustomer: field.visibleToCustomer,
    editableByCustomer: field.editableByCustomer,
  };
}

const TEXTS = ['description', 'regexForValidation', 'defaultValue', 'placeholderText', 'hintText'] as const;
const SWITCHES = ['isActive', 'mandatoryOnCreation', 'mandatoryOnClose', 'visibleToCustomer', 'editableByCustomer'] as const;

const blankToNull = (text: string) => (text.trim() === '' ? null : text);

export function createBodyOf(values: FieldFormValues): FieldCreate {
  const body: FieldCreate = {
    name: values.name.trim(),
    fieldType: values.fieldType,
    source: values.source,
    teamId: values.teamId || null,
  };
  if (isChoiceType(values.fieldType)) {
    body.options = values.options.map((option) => ({ value: option.value.trim() }));
  }
  for (const key of TEXTS) {
    body[key] = blankToNull(values[key]);
  }
  for (const key of SWITCHES) {
    body[key] = values[key];
  }
  return body;
}

/** Only what the person changed since `base`: a bulk update sends the changes, not the whole field. */
export function updatesOf(base: FieldFormValues, values: FieldFormValues): FieldUpdates {
  const updates: FieldUpdates = {};
  if (values.name.trim() !== base.name.trim()) {
    updates.name = values.name.trim();
  }
  const options = values.options.map((option) => option.value.trim());
  if (JSON.stringify(options) !== JSON.stringify(base.options.map((option) => option.value.trim()))) {
    updates.options = options.map((value) => ({ value }));
  }
  for (const key of TEXTS) {
    if (values[key] !== base[key]) {
      updates[key] = blankToNull(values[key]);
    }
  }
  for (const key of SWITCHES) {
    if (values[key] !== base[key]) {
      updates[key] = values[key];
    }
  }
  return updates;
}

/** The labels people know the properties by, for saying what someone else changed. */
const PROPERTY_LABELS: Record<keyof FieldFormValues, string> = {
  name: 'name',
  description: 'description',
  fieldType: 'type',
  source: 'record',
  teamId: 'team',
  options: 'choices',
  regexForValidation: 'pattern',
  defaultValue: 'default value',
  placeholderText: 'placeholder',
  hintText: 'hint',
  isActive: 'active',
  mandatoryOnCreation: 'required on creation',
  mandatoryOnClose: 'required on close',
  visibleToCustomer: 'visible to customers',
  editableByCustomer: 'editable by customers',
};

/** What differs between two versions of a field, in the words of the form. */
export function changedProperties(before: FieldFormValues, after: FieldFormValues): string[] {
  return (Object.keys(PROPERTY_LABELS) as (keyof FieldFormValues)[])
    .filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]))
    .map((key) => PROPERTY_LABELS[key]);
}

/**
 * The API names a bulk update's problems by their place in the request (`fields.0.updates.regexForValidation …`);
 * this tells `showApiError` which form field each is.
 */
export const BULK_UPDATE_NAMES: Record<string, string> = Object.fromEntries(
  (Object.keys(PROPERTY_LABELS) as string[]).map((key) => [`fields.0.updates.${key}`, key]),
);
