import type { Kysely } from 'kysely';
import { findLiveAgent } from '../../agent-studio/agents/agent.lookup.js';
import type { DB } from '../../db/database.js';
import { AppError } from '../../lib/errors.js';
import type { Principal } from '../../lib/principal.js';
import { createSecretBox } from '../../lib/secret-box.js';
import { generateSecretToken } from '../../lib/secret-token.js';
import { requireOrgAdmin } from '../../platform/authorization.js';
import { recordEvent } from '../../platform/events/event.recorder.js';
import { findTeam } from '../../platform/teams/team.lookup.js';
import { toHelpCenter } from './help-center.presenter.js';
import { findHelpCenterById, findWidgetSecretSealed, lockHelpCenter, updateHelpCenter } from './help-center.repository.js';
// Type-only: help-center.service imports this file for `requireWidgetReferences`.
import type { HelpCenterDeps } from './help-center.service.js';
import type { WidgetInput } from './help-center.widget.js';

/** The 404 of every help-center route (help-center.service's, which imports this file). */
const HELP_CENTER_NOT_FOUND = 'Help center not found';

/** The help center's widget secret opens only in its own row and column. */
const widgetSecretAad = (helpCenterId: string) => `help_center|${helpCenterId}|widget_secret`;

/**
 * The agent that answers and the team that takes handoffs must be the organization's: another
 * organization's is the 404 of a missing one, as the theme's logo attachment is.
 */
export async function requireWidgetReferences(
  db: Kysely<DB>,
  organizationId: string,
  widget: WidgetInput | undefined,
): Promise<void> {
  if (widget?.agentId && !(await findLiveAgent(db, organizationId, widget.agentId))) {
    throw AppError.notFound('Agent not found');
  }
  if (widget?.handoffTeamId && !(await findTeam(db, organizationId, widget.handoffTeamId))) {
    throw AppError.notFound('Team not found');
  }
}

/**
 * Makes a new widget secret (admins), replacing any earlier one, so tokens signed with the old
 * one stop verifying at once. The secret is answered this once and kept only sealed.
 */
export async function rotateWidgetSecret(
  deps: HelpCenterDeps & { secretKey: Buffer },
  principal: Principal,
  id: string,
): Promise<{ secret: string }> {
  requireOrgAdmin(principal);
  const organizationId = principal.organizationId;
  const secret = generateSecretToken();
  const sealed = createSecretBox(deps.secretKey).seal(secret, widgetSecretAad(id));
  await deps.db.transaction().execute(async (trx) => {
    if (!(await lockHelpCenter(trx, organizationId, id))) {
      throw AppError.notFound(HELP_CENTER_NOT_FOUND);
    }
    await updateHelpCenter(trx, organizationId, id, {
      widget_secret_sealed: sealed,
      updated_at: deps.clock.now().toISOString(),
    });
    const updated = await findHelpCenterById(trx, organizationId, id);
    if (!updated) {
      throw AppError.notFound(HELP_CENTER_NOT_FOUND);
    }
    await recordEvent(trx, deps, organizationId, {
      type: 'help_center.updated',
      actor: { type: 'user', id: principal.userId },
      data: toHelpCenter(updated),
    });
  });
  return { secret };
}

/** The help center's widget secret, for verifying a host's identity token; null when none was made or it no longer opens. */
export async function openWidgetSecret(
  deps: { db: Kysely<DB>; secretKey: Buffer },
  organizationId: string,
  helpCenterId: string,
): Promise<string | null> {
  const sealed = await findWidgetSecretSealed(deps.db, organizationId, helpCenterId);
  return sealed === null ? null : createSecretBox(deps.secretKey).open(sealed, widgetSecretAad(helpCenterId));
}
