export type NoteVisibility = 'public' | 'private';

export interface AccountNoteTable {
  id: string;
  organization_id: string;
  account_id: string;
  content: string;
  /** A `note_type` attribute value. */
  type_id: string | null;
  /** `private`: seen by its author and organization admins only. */
  visibility: NoteVisibility;
  author_id: string;
  metadata: string | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

/** An attachment (uploaded file or recorded link) of a note. */
export interface AccountNoteAttachmentTable {
  note_id: string;
  attachment_id: string;
  organization_id: string;
  created_at: string;
}
