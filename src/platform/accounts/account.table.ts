export interface AccountTable {
  id: string;
  organization_id: string;
  name: string;
  description: string | null;
  source: string | null;
  logo: string | null;
  /** Lower-case; unique per organization among live accounts. */
  primary_domain: string;
  secondary_domain: string | null;
  website: string | null;
  status_id: string | null;
  classification_id: string | null;
  health_id: string | null;
  industry_id: string | null;
  account_owner_id: string | null;
  annual_revenue: number | null;
  employees: number | null;
  billing_address: string | null;
  shipping_address: string | null;
  metadata: string | null;
  /** JSON array of `{fieldId, value}`. */
  custom_field_values: string;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

/** A customer contact's membership of an account. */
export interface AccountContactTable {
  account_id: string;
  customer_contact_id: string;
  organization_id: string;
  created_at: string;
  /** The contact's own `created_at`, copied so an account's contacts are listed from this table's index. */
  contact_created_at: string;
}
