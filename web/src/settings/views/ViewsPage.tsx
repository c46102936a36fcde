import { PageHeader } from '../../ui/PageHeader';

export function ViewsPage() {
  return <PageHeader title="Views" />;
}
