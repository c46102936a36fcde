import { PageHeader } from '../../ui/PageHeader';

export function ConfigurationPage() {
  return <PageHeader title="Import and export" />;
}
