import { readBoolean } from '../../db/dialect.js';
import type { AttributeValueRow } from './account-attribute.repository.js';

export function toAttributeValue(row: AttributeValueRow) {
  return {
    id: row.id,
    attribute: row.attribute,
    value: row.value,
    isDefault: readBoolean(row.is_default),
    configuration: { icon: row.icon, color: row.color },
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** How records show the value an attribute field points at: `{id, name, icon, color}`, or null. */
export function toAttributeConfiguration(value: {
  id: string | null;
  value: string | null;
  icon: string | null;
  color: string | null;
}) {
  return value.id === null ? null : { id: value.id, name: value.value ?? '', icon: value.icon, color: value.color };
}
