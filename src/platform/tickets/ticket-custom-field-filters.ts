import { createHash } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/database.js';
import { AppError } from '../../lib/errors.js';
import {
  type CustomFieldValueEntry,
  checkCustomFieldValue,
  customFieldsByUid,
  MULTI_CHOICE_TYPES,
  valueRulesOf,
} from '../custom-fields/custom-field.values.js';
import type { TicketFilterQuery } from './ticket-filters.js';

/**
 * The custom-field filters of ticket lists (`cf.<fieldId>=value`) and the index table they read,
 * `ticket_custom_field_values`, which every change of a ticket's values keeps in step.
 */

type Db = Kysely<DB> | Transaction<DB>;

const invalid = (field: string, message: string, rule = 'reference') =>
  AppError.invalid(`${field} ${message}`, { location: 'query', path: [field], rule });

/** The `cf.<fieldId>` filters of a query, each checked against its field and reduced to the key the index holds. */
export async function customFieldFilters(db: Db, organizationId: string, query: TicketFilterQuery) {
  const entries = Object.entries(query).filter(([key]) => key.startsWith('cf.'));
  if (entries.length === 0) {
    return undefined;
  }
  const fields = await customFieldsByUid(
    db,
    organizationId,
    entries.map(([key]) => key.slice(3)),
  );
  return entries
    .map(([key, raw]) => {
      const field = fields.get(key.slice(3));
      if (!field) {
        throw AppError.notFound('Custom field not found!');
      }
      if (field.source !== 'ticket') {
        throw invalid(key, `is a custom field of ${field.source} records, not of tickets`, 'source');
      }
      const text = String(raw);
      const checked = checkCustomFieldValue(valueRulesOf(field), MULTI_CHOICE_TYPES.includes(field.field_type) ? [text] : text);
      const [valueKey] = checked.ok ? customFieldValueKeys(checked.value) : [];
      if (!checked.ok || valueKey === undefined) {
        throw invalid(key, checked.ok ? 'must not be blank' : checked.problem, 'customFieldValue');
      }
      return { fieldId: field.uid, valueKey };
    })
    .sort((a, b) => a.fieldId.localeCompare(b.fieldId) || a.valueKey.localeCompare(b.valueKey));
}

/**
 * The normal forms of a custom-field value that filters match: text in lower case, numbers in
 * JavaScript's shortest form, one per option of a multiple choice. A text too long for an index
 * entry becomes its SHA-256 (a filter for the same text computes the same). The migration that
 * filled the table holds a copy of this: change both or neither.
 */
export function customFieldValueKeys(value: unknown): string[] {
  const one = (item: unknown): string | null => {
    if (typeof item === 'number' && Number.isFinite(item)) {
      return String(item);
    }
    if (typeof item !== 'string' || item.trim() === '') {
      return null;
    }
    const text = item.trim().toLowerCase();
    return text.length <= 200 ? text : `sha256:${createHash('sha256').update(text).digest('hex')}`;
  };
  const keys = (Array.isArray(value) ? value : [value]).map(one).filter((key): key is string => key !== null);
  return [...new Set(keys)];
}

/**
 * Rewrites a ticket's rows in `ticket_custom_field_values` from its values, in the caller's
 * transaction, so a filter sees what the ticket holds as soon as the change commits.
 */
export async function writeTicketCustomFieldValues(
  trx: Transaction<DB>,
  ticket: { id: string; organization_id: string },
  values: readonly CustomFieldValueEntry[],
  options: { replace: boolean } = { replace: true },
): Promise<void> {
  if (options.replace) {
    await trx.deleteFrom('ticket_custom_field_values').where('ticket_id', '=', ticket.id).execute();
  }
  const rows = values.flatMap((entry) =>
    customFieldValueKeys(entry.value).map((valueKey) => ({
      ticket_id: ticket.id,
      field_id: entry.fieldId,
      value_key: valueKey,
      organization_id: ticket.organization_id,
    })),
  );
  if (rows.length > 0) {
    await trx.insertInto('ticket_custom_field_values').values(rows).execute();
  }
}
