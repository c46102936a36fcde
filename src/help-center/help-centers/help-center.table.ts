export interface HelpCenterTable {
  id: string;
  organization_id: string;
  name: string;
  /** Derived from the name at creation; unique per organization. */
  slug: string;
  is_protected: boolean | number;
  /** JSON `{title, description, image}`. */
  meta: string;
  created_by: string;
  created_at: string;
  updated_at: string;
}

/** Last number handed out per organization and scope; see `nextHelpCenterNumber`. */
export interface HelpCenterCounterTable {
  organization_id: string;
  scope: string;
  last_value: number;
}
