import type { Kysely } from 'kysely';
import type { DB } from '../../db/database.js';
import { findHelpCenterBySlug } from '../../help-center/help-centers/help-center.service.js';
import { readWidget, type WidgetSettings } from '../../help-center/help-centers/help-center.widget.js';
import { type SiteHelpCenter, siteHelpCenterOf } from '../../help-center/site/site.service.js';
import { AppError } from '../../lib/errors.js';

/** The help center a messenger request names, with its widget's settings. */
export interface MessengerHelpCenter {
  site: SiteHelpCenter;
  widget: WidgetSettings;
  /** The help center's maker: a chat ticket's `created_by_id`, as a mailbox's maker is an email ticket's. */
  createdById: string;
}

export const MESSENGER_NOT_FOUND = 'Messenger not found';

/** The help center at `slug` with its widget, when the widget is enabled; else undefined (unknown and disabled look alike). */
export async function findEnabledWidget(db: Kysely<DB>, slug: string): Promise<MessengerHelpCenter | undefined> {
  const row = await findHelpCenterBySlug(db, slug);
  if (!row) {
    return undefined;
  }
  const widget = readWidget(row.widget);
  return widget.enabled ? { site: siteHelpCenterOf(row), widget, createdById: row.created_by } : undefined;
}

/** As `findEnabledWidget`, or the messenger's 404. */
export async function requireEnabledWidget(db: Kysely<DB>, slug: string): Promise<MessengerHelpCenter> {
  const found = await findEnabledWidget(db, slug);
  if (!found) {
    throw AppError.notFound(MESSENGER_NOT_FOUND);
  }
  return found;
}

/** Whether a browser page on `origin` may embed the widget and read its config. */
export function isAllowedOrigin(widget: WidgetSettings, origin: string | undefined): boolean {
  return origin !== undefined && widget.allowedOrigins.includes(origin);
}
