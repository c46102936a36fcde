import { PageHeader } from '../../ui/PageHeader';

export function AccountsPage() {
  return <PageHeader title="Accounts" />;
}
