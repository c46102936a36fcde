import { readBoolean, readJson } from '../../db/dialect.js';
import type { CustomFieldRow } from './custom-field.repository.js';

export function toCustomField(row: CustomFieldRow) {
  return {
    name: row.name,
    uid: row.uid,
    slug: row.slug,
    organizationId: row.organization_id,
    source: row.source,
    fieldType: row.field_type,
    options: readJson<string[]>(row.options) ?? [],
    metadata: readJson<Record<string, unknown>>(row.metadata) ?? {},
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    isActive: readBoolean(row.is_active),
    teamId: row.team_id,
    autoAddToAllForms: readBoolean(row.auto_add_to_all_forms),
    hintText: row.hint_text,
    placeholderText: row.placeholder_text,
    defaultValue: row.default_value,
    mandatoryOnCreation: readBoolean(row.mandatory_on_creation),
    mandatoryOnClose: readBoolean(row.mandatory_on_close),
    visibleToCustomer: readBoolean(row.visible_to_customer),
    editableByCustomer: readBoolean(row.editable_by_customer),
    description: row.description,
    regexForValidation: row.regex_for_validation,
    lookup: row.lookup,
    version: Number(row.version),
    updatedBy: row.updated_by,
  };
}
