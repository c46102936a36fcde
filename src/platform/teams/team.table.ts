export interface TeamTable {
  id: string;
  organization_id: string;
  name: string;
  /** Short code used in ticket identifiers (`WED-5`); unique per organization, case-insensitively. */
  identifier: string;
  description: string | null;
  icon: string | null;
  color: string | null;
  parent_team_id: string | null;
  is_private: boolean | number;
  owner_id: string;
  created_at: string;
  updated_at: string;
  archived_at: string | null;
}

export interface TeamMemberTable {
  team_id: string;
  user_id: string;
  organization_id: string;
  is_admin: boolean | number;
  invited_by_id: string | null;
  joined_at: string;
}
