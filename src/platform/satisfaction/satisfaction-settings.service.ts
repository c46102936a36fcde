import type { Kysely } from 'kysely';
import type { DB } from '../../db/database.js';
import { writeJson } from '../../db/dialect.js';
import type { Clock } from '../../lib/clock.js';
import { AppError } from '../../lib/errors.js';
import type { Principal } from '../../lib/principal.js';
import { requireTeam } from '../teams/team.lookup.js';
import { requireManagedTeam } from '../teams/team.service.js';
import { defaultSettingsRow, toSatisfactionSettings } from './satisfaction.presenter.js';
import { findSettings, findTeamPriorityIds, findTeamTagIds, upsertSettings } from './satisfaction.repository.js';
import type { PutSatisfactionSettings, SatisfactionSettings } from './satisfaction.schemas.js';

/**
 * A team's survey settings: whether closing its tickets asks the requestor, after how long, how
 * many, how often per contact, and which tickets never. Any member reads them; the team's
 * managers and the organization's admins change them, as the rest of a team's configuration.
 */

export async function getSatisfactionSettings(
  db: Kysely<DB>,
  principal: Principal,
  teamId: string,
): Promise<SatisfactionSettings> {
  await requireTeam(db, principal.organizationId, teamId);
  const row = await findSettings(db, principal.organizationId, teamId);
  return toSatisfactionSettings(row ?? defaultSettingsRow(principal.organizationId, teamId));
}

/** What a team without settings of its own has (surveys off): what a configuration import compares with. */
export function defaultSatisfactionSettings(organizationId: string, teamId: string): SatisfactionSettings {
  return toSatisfactionSettings(defaultSettingsRow(organizationId, teamId));
}

/** Every id must be one of the team's: a tag of another team, or a status passed as a priority, is a 400. */
function requireKnown(field: string, sent: readonly string[], known: readonly string[]): void {
  const unknown = sent.filter((id) => !known.includes(id));
  if (unknown.length > 0) {
    throw AppError.invalid(`skipWhen.${field} names what is not the team's: ${unknown.join(', ')}`, {
      location: 'body',
      path: ['skipWhen', field],
      rule: 'exists',
    });
  }
}

export async function putSatisfactionSettings(
  deps: { db: Kysely<DB>; clock: Clock },
  principal: Principal,
  teamId: string,
  body: PutSatisfactionSettings,
): Promise<SatisfactionSettings> {
  const { db } = deps;
  await requireManagedTeam(db, principal, teamId);
  requireKnown('tagIds', body.skipWhen.tagIds, await findTeamTagIds(db, teamId, body.skipWhen.tagIds));
  requireKnown('priorityIds', body.skipWhen.priorityIds, await findTeamPriorityIds(db, teamId, body.skipWhen.priorityIds));
  const row = {
    team_id: teamId,
    organization_id: principal.organizationId,
    enabled: body.enabled,
    delay_minutes: body.delayMinutes,
    sampling_share: body.samplingShare,
    cooldown_days: body.cooldownDays,
    skip_tag_ids: writeJson(body.skipWhen.tagIds) ?? '[]',
    skip_priority_ids: writeJson(body.skipWhen.priorityIds) ?? '[]',
    updated_at: deps.clock.now().toISOString(),
  };
  await upsertSettings(db, row);
  return toSatisfactionSettings(row);
}
