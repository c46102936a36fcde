import { useMutation } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { ModelProvider } from '../api/agent-studio-client';
import { Button } from '../ui/Button';
import { ErrorNotice } from '../ui/ErrorNotice';
import { testProvider } from './studio-queries';

/** "Test": one tiny completion with the saved settings, and what the model answered or why it failed. */
export function ProviderTestPanel({ provider }: { provider: ModelProvider }) {
  const [model, setModel] = useState('');
  const modelId = useId();
  const test = useMutation({ mutationFn: () => testProvider(provider.id, model.trim() || undefined) });
  const result = test.data;
  return (
    <section
      aria-labelledby={`${modelId}-heading`}
      className="flex flex-col gap-3 rounded-md border border-zinc-200 p-4 dark:border-zinc-800"
    >
      <h2 id={`${modelId}-heading`} className="font-semibold">
        Test the provider
      </h2>
      <div className="flex flex-wrap items-end gap-2">
        <div className="flex min-w-0 flex-1 flex-col gap-1">
          <label htmlFor={modelId} className="text-sm font-medium">
            Model to test
          </label>
          <input
            id={modelId}
            className="rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm dark:border-zinc-700 dark:bg-zinc-900"
            placeholder={provider.default_model}
            value={model}
            onChange={(event) => setModel(event.target.value)}
          />
        </div>
        <Button variant="primary" disabled={test.isPending} onClick={() => test.mutate()}>
          {test.isPending ? 'Testing…' : 'Test'}
        </Button>
      </div>
      <ErrorNotice error={test.error} />
      {result?.ok ? (
        <p
          role="status"
          className="rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200"
        >
          {`Test passed: ${result.model} answered in ${result.latency_ms} ms`}
          {result.reply ? <span className="mt-1 block break-words">“{result.reply}”</span> : null}
        </p>
      ) : null}
      {result && !result.ok ? (
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800 dark:bg-red-950 dark:text-red-200">
          {`Test failed after ${result.latency_ms} ms: ${result.error ?? 'no answer'}`}
        </p>
      ) : null}
    </section>
  );
}
