export interface TagTable {
  id: string;
  organization_id: string;
  name: string;
  /** `name` in lower case; unique per organization. */
  lower_name: string;
  created_by: string;
  created_at: string;
  updated_at: string;
}
