import { PageHeader } from '../../ui/PageHeader';

export function RoutingPage() {
  return <PageHeader title="Routing" />;
}
