import { readBoolean } from '../../db/dialect.js';
import { readMeta } from './help-center.meta.js';
import type { HelpCenterRow } from './help-center.repository.js';
import { readTheme } from './help-center.theme.js';
import { readWidget } from './help-center.widget.js';

export function toHelpCenter(row: HelpCenterRow) {
  return {
    _id: row.id,
    orgId: row.organization_id,
    name: row.name,
    slug: row.slug,
    isProtected: readBoolean(row.is_protected),
    meta: readMeta(row.meta),
    customDomain: row.custom_domain,
    theme: readTheme(row.theme),
    widget: { ...readWidget(row.widget), secretSet: readBoolean(row.widget_secret_set) },
    createdBy: row.created_by,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
