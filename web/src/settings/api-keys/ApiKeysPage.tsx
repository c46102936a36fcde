import { PageHeader } from '../../ui/PageHeader';

export function ApiKeysPage() {
  return <PageHeader title="API keys" />;
}
