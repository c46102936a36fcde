import { PageHeader } from '../../ui/PageHeader';

export function MacrosPage() {
  return <PageHeader title="Macros" />;
}
