import { PageHeader } from '../../ui/PageHeader';

export function NotificationsPage() {
  return <PageHeader title="Notifications" />;
}
