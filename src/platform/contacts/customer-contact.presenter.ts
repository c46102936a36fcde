import { readJson } from '../../db/dialect.js';
import type { CustomFieldValueEntry } from '../custom-fields/custom-field.values.js';
import type { ContactRow } from './customer-contact.repository.js';

export function toContact(row: ContactRow, accounts: { id: string; name: string; primaryDomain: string }[]) {
  return {
    id: row.id,
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    phoneNumber: row.phone_number,
    avatarUrl: row.avatar_url,
    accounts,
    contactTypeId: row.contact_type_id,
    contactType: row.contact_type_value,
    customFieldValues: readJson<CustomFieldValueEntry[]>(row.custom_field_values) ?? [],
    metadata: readJson<Record<string, unknown>>(row.metadata),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
