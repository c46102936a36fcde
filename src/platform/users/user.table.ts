export type UserType = 'ORG_ADMIN' | 'ORG_MEMBER';

export interface UserTable {
  id: string;
  organization_id: string;
  name: string;
  email: string;
  user_type: UserType;
  avatar_url: string | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}
