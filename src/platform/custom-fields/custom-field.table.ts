export const CUSTOM_FIELD_SOURCES = ['ticket', 'account', 'custom_object', 'customer_contact'] as const;
export type CustomFieldSource = (typeof CUSTOM_FIELD_SOURCES)[number];

export const CUSTOM_FIELD_TYPES = [
  'single_line',
  'multi_line',
  'rich_text',
  'integer',
  'decimal',
  'currency',
  'date',
  'date_time',
  'time',
  'single_choice',
  'multi_choice',
  'radio_button',
  'checkbox',
  'email',
  'phone_number',
  'url',
] as const;
export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number];

/** A custom field definition. JSON columns are text written by `writeJson`. */
export interface CustomFieldTable {
  uid: string;
  organization_id: string;
  /** Null: organization-wide; otherwise the one team the field belongs to. */
  team_id: string | null;
  name: string;
  /** Derived from the name at creation; unique per organization and source, never reused. */
  slug: string;
  source: CustomFieldSource;
  field_type: CustomFieldType;
  /** JSON array of option values (strings). */
  options: string;
  /** JSON object, free-form. */
  metadata: string;
  description: string | null;
  is_active: boolean | number;
  auto_add_to_all_forms: boolean | number;
  hint_text: string | null;
  placeholder_text: string | null;
  default_value: string | null;
  regex_for_validation: string | null;
  mandatory_on_creation: boolean | number;
  mandatory_on_close: boolean | number;
  visible_to_customer: boolean | number;
  editable_by_customer: boolean | number;
  lookup: string | null;
  /** Starts at 1; +1 on every change (bulk update, delete). */
  version: number;
  /** The user whose change (create, update, delete) made the current version; null before this was recorded. */
  updated_by: string | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}
