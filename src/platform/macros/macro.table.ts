/** A canned reply: markdown with placeholders, and the changes it makes to the ticket (`actions`, JSON). */
export interface MacroTable {
  id: string;
  organization_id: string;
  owner_id: string;
  /** Null: personal, its owner's alone; else shared with this team. */
  team_id: string | null;
  name: string;
  /** What the macro is for; null when none was written. */
  description: string | null;
  /** Markdown with `{{placeholders}}`, checked against `MACRO_PLACEHOLDERS` when saved. */
  content: string;
  comment_visibility: 'public' | 'private';
  send_email: boolean | number;
  /** JSON `MacroActions`. */
  actions: string;
  created_at: string;
  updated_at: string;
}
