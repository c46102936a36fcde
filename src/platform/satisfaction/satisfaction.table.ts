/** A team's survey settings; a team without a row has the defaults (off). See the 1500 migration. */
export interface SatisfactionSettingsTable {
  team_id: string;
  organization_id: string;
  enabled: boolean | number;
  delay_minutes: number;
  sampling_share: number;
  cooldown_days: number;
  /** JSON array of team tag ids. */
  skip_tag_ids: string;
  /** JSON array of priority option ids. */
  skip_priority_ids: string;
  updated_at: string;
}

export type SurveyStatus = 'pending' | 'sent' | 'skipped' | 'rated';
export type SurveyRating = 'good' | 'bad';
export type SurveySkipReason = 'sampled_out' | 'skip_condition' | 'cooldown' | 'reopened' | 'no_address' | 'gone';

/** One survey of one close of a ticket. */
export interface SatisfactionSurveyTable {
  id: string;
  organization_id: string;
  ticket_id: string;
  team_id: string;
  contact_id: string | null;
  requestor_email: string;
  status: SurveyStatus;
  skip_reason: SurveySkipReason | null;
  /** Asked for by hand (`POST /v1/tickets/{id}/satisfaction/request`) rather than by the close. */
  manual: boolean | number;
  send_at: string;
  sent_at: string | null;
  /** SHA-256 of the link token, set when the survey is sent. */
  token_hash: string | null;
  expires_at: string | null;
  rating: SurveyRating | null;
  comment: string | null;
  rated_at: string | null;
  /** When the ticket reopened after the close the survey is about: its links stop working. */
  reopened_at: string | null;
  created_at: string;
}

/** When an address was last sent a survey, per organization: the cooldown's one row per contact. */
export interface SatisfactionContactCooldownTable {
  organization_id: string;
  email: string;
  last_sent_at: string;
}
