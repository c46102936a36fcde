export type TagType = 'ticket' | 'skills';

export interface TeamTagTable {
  id: string;
  organization_id: string;
  team_id: string;
  name: string;
  color: string | null;
  tag_type: TagType;
  description: string | null;
  created_at: string;
  updated_at: string;
}
