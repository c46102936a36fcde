import type { ColumnType } from 'kysely';

export interface HelpCenterTable {
  id: string;
  organization_id: string;
  name: string;
  /** Derived from the name at creation; unique across the instance (the site's `/hc/{slug}/`). */
  slug: string;
  is_protected: boolean | number;
  /** JSON `{title, description, image}`. */
  meta: string;
  /** Lower-case host name serving the site without the `/hc/{slug}` prefix; unique across the instance. */
  custom_domain: ColumnType<string | null, string | null | undefined, string | null>;
  /** JSON `{logoAttachmentId, primaryColor, footerLinks}`, each key optional; null for the defaults. */
  theme: ColumnType<string | null, string | null | undefined, string | null>;
  /** JSON of the messenger widget's settings (see `help-center.widget.ts`); null for the defaults (disabled). */
  widget: ColumnType<string | null, string | null | undefined, string | null>;
  /** The widget secret hosts sign identity tokens with, sealed by `lib/secret-box.ts`; null until made. */
  widget_secret_sealed: ColumnType<string | null, string | null | undefined, string | null>;
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
