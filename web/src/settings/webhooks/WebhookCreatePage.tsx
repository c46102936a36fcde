import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { PageHeader } from '../../ui/PageHeader';
import { revealSecret } from './revealed-secret';
import { WebhookForm } from './WebhookForm';
import { webhookBody } from './webhook-form';
import { createWebhook, WEBHOOKS_KEY, webhookQuery } from './webhook-queries';

/** A new webhook; once saved, its page shows the signing secret, once. */
export function WebhookCreatePage() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [createdId, setCreatedId] = useState<string | null>(null);
  // After the form has shown itself saved (so leaving it asks nothing), open the new webhook.
  useEffect(() => {
    if (createdId) {
      void navigate({ to: '/settings/webhooks/$webhookId', params: { webhookId: createdId } });
    }
  }, [createdId, navigate]);
  return (
    <div>
      <PageHeader title="New webhook" description="An endpoint of yours that receives the events you choose." />
      <div className="mx-auto max-w-3xl p-4">
        <Link to="/settings/webhooks" className="mb-3 inline-block text-sm text-blue-700 hover:underline dark:text-blue-400">
          ← All webhooks
        </Link>
        <WebhookForm
          submitLabel="Create webhook"
          onSave={async (values) => {
            const { secret, ...webhook } = await createWebhook(webhookBody(values));
            revealSecret(webhook.id, secret);
            queryClient.setQueryData(webhookQuery(webhook.id).queryKey, webhook);
            void queryClient.invalidateQueries({ queryKey: [...WEBHOOKS_KEY, 'list'] });
            setCreatedId(webhook.id);
            return webhook;
          }}
        />
      </div>
    </div>
  );
}
