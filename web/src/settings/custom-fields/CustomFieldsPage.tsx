import { PageHeader } from '../../ui/PageHeader';

export function CustomFieldsPage() {
  return <PageHeader title="Custom fields" />;
}
