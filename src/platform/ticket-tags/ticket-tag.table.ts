/** A team tag of type `ticket` set on a ticket of that team. */
export interface TicketTagTable {
  ticket_id: string;
  tag_id: string;
  organization_id: string;
  created_at: string;
}
