/** Facts about this installation as a whole, such as "the first-start organization was made". */
export interface InstanceSettingTable {
  key: string;
  value: string;
  created_at: string;
}
