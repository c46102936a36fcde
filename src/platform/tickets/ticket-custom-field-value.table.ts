/**
 * One value of a ticket's custom field in a normal form an index can match (one row per option of
 * a multiple choice): what `cf.<fieldId>=value` filters read. `tickets.custom_field_values` stays
 * the record; these rows are rewritten from it in the same transaction (`ticket-custom-field-filters.ts`).
 */
export interface TicketCustomFieldValueTable {
  ticket_id: string;
  field_id: string;
  value_key: string;
  organization_id: string;
}
