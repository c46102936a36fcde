export interface CollectionTable {
  id: string;
  organization_id: string;
  /** Increasing per organization. */
  uid: number;
  help_center_id: string;
  /** Null at the top of the help center. */
  parent_id: string | null;
  name: string;
  /** Unique among siblings. */
  slug: string;
  description: string | null;
  icon: string;
  /** The collection's own flag; a protected ancestor makes it read as protected too. */
  is_protected: boolean | number;
  /** JSON `{title, description, image}`. */
  meta: string;
  /** The API's `order`: 1, 2, 3… among siblings, without gaps. */
  position: number;
  created_by: string;
  created_at: string;
  updated_at: string;
}
