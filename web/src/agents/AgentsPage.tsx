import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Bot, KeyRound, Plus } from 'lucide-react';
import type { ReactNode } from 'react';
import { useMe } from '../auth/session';
import { ErrorNotice } from '../ui/ErrorNotice';
import { PageHeader } from '../ui/PageHeader';
import { usageSummary } from './agent-usage';
import { agentsQuery, providersQuery } from './studio-queries';

const ACTION =
  'inline-flex items-center gap-1.5 rounded-md bg-blue-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-blue-700';
const ROW = 'flex flex-wrap items-baseline justify-between gap-2 px-3 py-2 hover:bg-zinc-50 dark:hover:bg-zinc-900';

/** The AI agents area: the organization's agents, and the model providers they run on. */
export function AgentsPage() {
  // Everyone may read them; making and changing them is the admins' (the API answers others 403).
  const isAdmin = useMe().user.userType === 'ORG_ADMIN';
  const agents = useQuery(agentsQuery);
  const providers = useQuery(providersQuery);
  const providerNames = new Map((providers.data ?? []).map((provider) => [provider.id, provider.name]));
  return (
    <div className="h-full overflow-y-auto">
      <PageHeader
        title="AI agents"
        description="Agents that answer customers and help your team, and the language models they run on."
        actions={
          <>
            <Link to="/agents/chats" className="rounded-md border border-zinc-300 px-3 py-1.5 text-sm dark:border-zinc-700">
              Chat history
            </Link>
            {isAdmin ? (
              <Link to="/agents/new" className={ACTION}>
                <Plus size={14} aria-hidden /> New agent
              </Link>
            ) : null}
          </>
        }
      />
      <div className="mx-auto flex max-w-4xl flex-col gap-8 p-4">
        <Section title="Agents" icon={<Bot size={16} aria-hidden />}>
          <ErrorNotice error={agents.error} />
          {agents.data?.length === 0 ? (
            <EmptyState title="No agents yet">Add a model provider below, then make an agent with "New agent".</EmptyState>
          ) : (
            <ul aria-label="Agents" className="divide-y divide-zinc-200 dark:divide-zinc-800">
              {(agents.data ?? []).map((agent) => {
                const providerId = agent.configuration.model_provider_id;
                const model = typeof agent.configuration.model === 'string' ? agent.configuration.model : null;
                const provider =
                  typeof providerId === 'string' ? (providerNames.get(providerId) ?? 'a removed provider') : 'server default';
                return (
                  <li key={agent.id} className={ROW}>
                    <Link
                      to="/agents/$agentId"
                      params={{ agentId: agent.id }}
                      className="font-medium text-blue-700 hover:underline dark:text-blue-400"
                    >
                      {agent.name}
                    </Link>
                    <span className="text-sm text-zinc-500 dark:text-zinc-400">
                      {[
                        provider,
                        model,
                        agent.status === 'inactive' ? 'inactive' : null,
                        `${usageSummary(agent.usage)} this month`,
                      ]
                        .filter(Boolean)
                        .join(' · ')}
                    </span>
                  </li>
                );
              })}
            </ul>
          )}
        </Section>
        <Section
          title="Model providers"
          icon={<KeyRound size={16} aria-hidden />}
          action={
            isAdmin ? (
              <Link to="/agents/providers/new" className="text-sm text-blue-700 hover:underline dark:text-blue-400">
                New model provider
              </Link>
            ) : null
          }
        >
          <ErrorNotice error={providers.error} />
          {providers.data?.length === 0 ? (
            <EmptyState title="No model providers yet">
              Add the OpenAI-compatible endpoint or Anthropic account your agents will call, and test it.
            </EmptyState>
          ) : (
            <ul aria-label="Model providers" className="divide-y divide-zinc-200 dark:divide-zinc-800">
              {(providers.data ?? []).map((provider) => (
                <li key={provider.id} className={ROW}>
                  <Link
                    to="/agents/providers/$providerId"
                    params={{ providerId: provider.id }}
                    className="font-medium text-blue-700 hover:underline dark:text-blue-400"
                  >
                    {provider.name}
                  </Link>
                  <span className="text-sm text-zinc-500 dark:text-zinc-400">
                    {`${provider.default_model} · ${provider.has_api_key ? 'key set' : 'no key'}`}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </Section>
      </div>
    </div>
  );
}

function Section({ title, icon, action, children }: { title: string; icon: ReactNode; action?: ReactNode; children: ReactNode }) {
  return (
    <section className="flex flex-col gap-2">
      <div className="flex items-center justify-between gap-2">
        <h2 className="flex items-center gap-2 font-semibold">
          {icon}
          {title}
        </h2>
        {action}
      </div>
      <div className="rounded-md border border-zinc-200 dark:border-zinc-800">{children}</div>
    </section>
  );
}

function EmptyState({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="p-6 text-center">
      <h3 className="font-medium">{title}</h3>
      <p className="text-sm text-zinc-500 dark:text-zinc-400">{children}</p>
    </div>
  );
}
