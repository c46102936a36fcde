export const ACCOUNT_ATTRIBUTES = [
  'account_status',
  'account_classification',
  'account_health',
  'account_industry',
  'contact_type',
  'note_type',
] as const;
export type AccountAttribute = (typeof ACCOUNT_ATTRIBUTES)[number];

/** One value an account attribute can take (`Prospect` of `account_status`, `Meeting` of `note_type`). */
export interface AccountAttributeValueTable {
  id: string;
  organization_id: string;
  attribute: AccountAttribute;
  value: string;
  icon: string | null;
  /** Hex colour, `#RRGGBB`. */
  color: string | null;
  /** Exactly one live value per attribute is the default (a partial unique index keeps it so). */
  is_default: boolean | number;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}
