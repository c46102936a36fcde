import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useParams } from '@tanstack/react-router';
import { DeleteAction } from '../ui/DeleteAction';
import { ErrorNotice } from '../ui/ErrorNotice';
import { PageHeader } from '../ui/PageHeader';
import { ProviderForm } from './ProviderForm';
import { ProviderTestPanel } from './ProviderTestPanel';
import { newProviderBody, providerChanges } from './provider-form';
import { BACK_TO_AGENTS, useOpenWhenCreated } from './saved-page';
import { createProvider, deleteProvider, PROVIDERS_KEY, providerQuery, updateProvider } from './studio-queries';

/** A saved provider's page. */
const OPEN_PROVIDER = (providerId: string) => ({ to: '/agents/providers/$providerId', params: { providerId } }) as const;

/** A new model provider; once saved, its page opens, where it can be tested. */
export function NewProviderPage() {
  const queryClient = useQueryClient();
  const setCreatedId = useOpenWhenCreated(OPEN_PROVIDER);
  return (
    <div className="h-full overflow-y-auto">
      <PageHeader title="New model provider" description="A language model your agents run on, and the key to call it with." />
      <div className="mx-auto max-w-3xl p-4">
        {BACK_TO_AGENTS}
        <ProviderForm
          submitLabel="Create provider"
          onSave={async (values) => {
            const provider = await createProvider(newProviderBody(values));
            queryClient.setQueryData(providerQuery(provider.id).queryKey, provider);
            void queryClient.invalidateQueries({ queryKey: [...PROVIDERS_KEY, 'list'] });
            setCreatedId(provider.id);
            return provider;
          }}
        />
      </div>
    </div>
  );
}

/** A saved model provider: its settings, "Test", and deleting it. */
export function ProviderPage() {
  const { providerId } = useParams({ from: '/signed-in/agents/providers/$providerId' });
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const provider = useQuery(providerQuery(providerId));
  return (
    <div className="h-full overflow-y-auto">
      <PageHeader title={provider.data?.name ?? 'Model provider'} description="Settings, key and a test completion." />
      <div className="mx-auto flex max-w-3xl flex-col gap-6 p-4">
        <div>{BACK_TO_AGENTS}</div>
        <ErrorNotice error={provider.error} />
        {provider.data ? (
          <>
            <ProviderForm
              key={provider.data.updated_at}
              provider={provider.data}
              submitLabel="Save provider"
              onSave={async (values) => {
                const saved = await updateProvider(providerId, providerChanges(values));
                queryClient.setQueryData(providerQuery(providerId).queryKey, saved);
                void queryClient.invalidateQueries({ queryKey: [...PROVIDERS_KEY, 'list'] });
                return saved;
              }}
            />
            <ProviderTestPanel provider={provider.data} />
            <div className="flex flex-wrap gap-2">
              <DeleteAction
                label="Delete provider"
                title={`Delete ${provider.data.name}?`}
                description="Agents that run on it stop running until they name another provider. This cannot be undone."
                remove={() => deleteProvider(providerId)}
                onDeleted={async () => {
                  queryClient.removeQueries({ queryKey: [...PROVIDERS_KEY, providerId] });
                  await queryClient.invalidateQueries({ queryKey: [...PROVIDERS_KEY, 'list'] });
                  await navigate({ to: '/agents' });
                }}
              />
            </div>
          </>
        ) : null}
      </div>
    </div>
  );
}
