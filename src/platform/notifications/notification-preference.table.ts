/**
 * A user's choice of which ticket emails they get. No row means every kind is on: a row is written
 * the first time the user changes something.
 */
export interface UserNotificationPreferenceTable {
  user_id: string;
  organization_id: string;
  /** A ticket was assigned to them (by hand, at creation or by routing). */
  assigned: boolean | number;
  /** The customer replied on a ticket assigned to them. */
  customer_reply: boolean | number;
  /** Someone mentioned them in an internal note. */
  mentioned: boolean | number;
  /** Mail they get only as a member of the team of an unassigned ticket (a new ticket, a customer reply). */
  team_unassigned: boolean | number;
  /** An SLA target of a ticket assigned to them (or, unassigned, of their team's) is near its due time or breached. */
  sla_alerts: boolean | number;
  created_at: string;
  updated_at: string;
}
