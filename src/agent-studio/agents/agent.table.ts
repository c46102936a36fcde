export type AgentStatus = 'active' | 'inactive';

export interface AgentTable {
  id: string;
  organization_id: string;
  created_by_id: string;
  name: string;
  description: string | null;
  configuration: string;
  template_id: string | null;
  avatar_url: string | null;
  metadata: string | null;
  status: AgentStatus;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}
