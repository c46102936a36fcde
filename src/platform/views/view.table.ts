/** A saved view: a named filter and sort of the ticket list, personal or shared with a team. */
export interface SavedViewTable {
  id: string;
  organization_id: string;
  owner_id: string;
  /** Null: personal, its owner's alone; else shared with this team. */
  team_id: string | null;
  name: string;
  /** JSON: the filter parameters of `GET /v1/tickets`, as `ViewFiltersSchema` checks them. */
  filters: string;
  /** The `sort` parameter of `GET /v1/tickets`, e.g. `-updatedAt`. */
  sort: string;
  created_at: string;
  updated_at: string;
}
