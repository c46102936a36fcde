/** A user's own working hours; JSON columns hold the same shapes as a team configuration's. */
export interface UserBusinessHoursTable {
  user_id: string;
  organization_id: string;
  timezone: string | null;
  common_daily_config: boolean | number;
  common_slots: string;
  daily_config: string;
  created_at: string;
  updated_at: string;
}
