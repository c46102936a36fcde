import { readBoolean, readJson } from '../../db/dialect.js';
import type { SatisfactionSettingsRow, SatisfactionSurveyRow } from './satisfaction.repository.js';
import type { SatisfactionSettings, SatisfactionSurvey } from './satisfaction.schemas.js';

/** What a team without a row of settings has: surveys off. */
export function defaultSettingsRow(organizationId: string, teamId: string): SatisfactionSettingsRow {
  return {
    team_id: teamId,
    organization_id: organizationId,
    enabled: false,
    delay_minutes: 0,
    sampling_share: 1,
    cooldown_days: 0,
    skip_tag_ids: '[]',
    skip_priority_ids: '[]',
    updated_at: '',
  };
}

export function toSatisfactionSettings(row: SatisfactionSettingsRow): SatisfactionSettings {
  return {
    teamId: row.team_id,
    enabled: readBoolean(row.enabled),
    delayMinutes: Number(row.delay_minutes),
    samplingShare: Number(row.sampling_share),
    cooldownDays: Number(row.cooldown_days),
    skipWhen: {
      tagIds: readJson<string[]>(row.skip_tag_ids) ?? [],
      priorityIds: readJson<string[]>(row.skip_priority_ids) ?? [],
    },
    updatedAt: row.updated_at === '' ? null : row.updated_at,
  };
}

export function toSatisfactionSurvey(row: SatisfactionSurveyRow): SatisfactionSurvey {
  return {
    id: row.id,
    ticketId: row.ticket_id,
    status: row.status,
    skipReason: row.skip_reason,
    manual: readBoolean(row.manual),
    sendAt: row.send_at,
    sentAt: row.sent_at,
    expiresAt: row.expires_at,
    rating: row.rating,
    comment: row.comment,
    ratedAt: row.rated_at,
    reopenedAt: row.reopened_at,
    createdAt: row.created_at,
  };
}
