import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { DateTime } from '../../ui/DateTime';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { LoadMore } from '../../ui/PageHeader';
import { useCursorPages } from '../../ui/use-cursor-pages';
import { type ApiKeySummary, apiKeyKeys, fetchApiKeysPage, revokeApiKey } from './api-keys-api';

/** A user's keys, oldest first, by name and visible prefix (the secret is never kept), each revocable. */
export function ApiKeyList({ userId }: { userId: string }) {
  const queryClient = useQueryClient();
  const keys = useCursorPages<ApiKeySummary>(apiKeyKeys.ofUser(userId), (cursor) => fetchApiKeysPage(userId, cursor));
  const [revoking, setRevoking] = useState<ApiKeySummary | null>(null);
  const revoke = useMutation({
    mutationFn: (key: ApiKeySummary) => revokeApiKey(userId, key.prefix),
    onSettled: async () => {
      setRevoking(null);
      await queryClient.invalidateQueries({ queryKey: apiKeyKeys.ofUser(userId) });
    },
  });
  return (
    <>
      <ErrorNotice error={keys.error ?? revoke.error} />
      {keys.isPending ? <p className="text-sm text-zinc-500 dark:text-zinc-400">Loading keys…</p> : null}
      {!keys.isPending && keys.items.length === 0 && !keys.error ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          No keys yet. Use “New API key” and give it the name of the program that will use it.
        </p>
      ) : null}
      <ul
        aria-label="API keys"
        className="divide-y divide-zinc-200 rounded-md border border-zinc-200 empty:hidden dark:divide-zinc-800 dark:border-zinc-800"
      >
        {keys.items.map((key) => (
          <ApiKeyRow key={key.prefix} apiKey={key} onRevoke={() => setRevoking(key)} />
        ))}
      </ul>
      <LoadMore hasMore={keys.hasMore} loading={keys.loadingMore} onLoadMore={keys.loadMore} />
      <ConfirmDialog
        open={revoking !== null}
        onOpenChange={(open) => (open ? null : setRevoking(null))}
        title={`Revoke ${revoking?.name ?? revoking?.prefix ?? 'this key'}?`}
        description="Programs using it get 401 from their next request on. This cannot be undone: issue a new key instead."
        confirmLabel="Revoke key"
        pending={revoke.isPending}
        onConfirm={() => revoking && revoke.mutate(revoking)}
      />
    </>
  );
}

function ApiKeyRow({ apiKey, onRevoke }: { apiKey: ApiKeySummary; onRevoke: () => void }) {
  const label = apiKey.name ?? 'Unnamed key';
  return (
    <li className="flex flex-wrap items-center gap-x-4 gap-y-1 px-3 py-2 text-sm">
      <div className="min-w-0 flex-1">
        <p className="flex flex-wrap items-center gap-2 font-medium">
          {label}
          <code className="rounded bg-zinc-100 px-1 text-xs font-normal dark:bg-zinc-800">{apiKey.prefix}…</code>
          {apiKey.revokedAt ? <Badge tone="red">Revoked</Badge> : null}
        </p>
        <p className="text-zinc-500 dark:text-zinc-400">
          Created <DateTime value={apiKey.createdAt} /> · last used <DateTime value={apiKey.lastUsedAt} empty="never" />
          {apiKey.revokedAt ? (
            <>
              {' '}
              · revoked <DateTime value={apiKey.revokedAt} />
            </>
          ) : null}
        </p>
      </div>
      {apiKey.revokedAt ? null : (
        <Button aria-label={`Revoke ${label} (${apiKey.prefix})`} onClick={onRevoke}>
          Revoke
        </Button>
      )}
    </li>
  );
}
