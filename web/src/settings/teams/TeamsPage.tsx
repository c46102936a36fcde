import { PageHeader } from '../../ui/PageHeader';

export function TeamsPage() {
  return <PageHeader title="Teams" />;
}
