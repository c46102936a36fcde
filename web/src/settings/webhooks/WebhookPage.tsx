import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from '@tanstack/react-router';
import { useState } from 'react';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { PageHeader } from '../../ui/PageHeader';
import { SecretOnce } from '../../ui/SecretOnce';
import { DeliveryLog } from './DeliveryLog';
import { takeRevealedSecret } from './revealed-secret';
import { WebhookActions } from './WebhookActions';
import { WebhookForm } from './WebhookForm';
import { WebhookStatus } from './WebhookStatus';
import { webhookBody } from './webhook-form';
import { deleteWebhook, updateWebhook, WEBHOOKS_KEY, type Webhook, webhookQuery } from './webhook-queries';

/** One webhook: its secret right after it was made or rotated, a test event, its settings and its delivery log. */
export function WebhookPage() {
  const { webhookId } = useParams({ from: '/signed-in/settings/webhooks/$webhookId' });
  const webhook = useQuery(webhookQuery(webhookId));
  if (webhook.error) {
    return (
      <div className="flex flex-col gap-3 p-4">
        <ErrorNotice error={webhook.error} />
        <BackToWebhooks />
      </div>
    );
  }
  if (!webhook.data) {
    return <p className="p-4 text-sm text-zinc-500 dark:text-zinc-400">Loading the webhook…</p>;
  }
  return <WebhookDetails webhook={webhook.data} />;
}

function BackToWebhooks() {
  return (
    <Link to="/settings/webhooks" className="inline-block text-sm text-blue-700 hover:underline dark:text-blue-400">
      ← All webhooks
    </Link>
  );
}

function WebhookDetails({ webhook }: { webhook: Webhook }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  // Shown once: taken from where the create left it, kept only in this page's state.
  const [secret, setSecret] = useState(() => takeRevealedSecret(webhook.id));
  const remove = useMutation({
    mutationFn: deleteWebhook(webhook.id),
    onSuccess: async () => {
      queryClient.removeQueries({ queryKey: [...WEBHOOKS_KEY, webhook.id] });
      await queryClient.invalidateQueries({ queryKey: [...WEBHOOKS_KEY, 'list'] });
      await navigate({ to: '/settings/webhooks' });
    },
  });
  return (
    <div>
      <PageHeader
        title={webhook.description || 'Webhook'}
        description={webhook.url}
        actions={<WebhookStatus webhook={webhook} />}
      />
      <div className="mx-auto flex max-w-3xl flex-col gap-8 p-4">
        <BackToWebhooks />
        {secret ? <SecretOnce label="Signing secret" secret={secret} onDismiss={() => setSecret(null)} /> : null}
        <WebhookActions webhook={webhook} onSecret={setSecret} onDelete={() => remove.mutate()} deleting={remove.isPending} />
        <ErrorNotice error={remove.error} />
        <DeliveryLog webhookId={webhook.id} />
        <section aria-labelledby="webhook-settings-title" className="flex flex-col gap-3">
          <h2 id="webhook-settings-title" className="text-base font-semibold">
            Settings
          </h2>
          <WebhookForm
            webhook={webhook}
            submitLabel="Save changes"
            onSave={async (values) => {
              const saved = await updateWebhook(webhook.id, webhookBody(values));
              queryClient.setQueryData(webhookQuery(webhook.id).queryKey, saved);
              void queryClient.invalidateQueries({ queryKey: [...WEBHOOKS_KEY, 'list'] });
              return saved;
            }}
          />
        </section>
      </div>
    </div>
  );
}
