export interface CustomerContactTable {
  id: string;
  organization_id: string;
  first_name: string;
  last_name: string | null;
  email: string;
  phone_number: string | null;
  contact_type_id: string | null;
  avatar_url: string | null;
  metadata: string | null;
  /** JSON array of `{fieldId, value}`. */
  custom_field_values: string;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}
