import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from '@tanstack/react-router';
import { DeleteAction } from '../ui/DeleteAction';
import { ErrorNotice } from '../ui/ErrorNotice';
import { PageHeader } from '../ui/PageHeader';
import { AgentActivityLinks } from './AgentActivityLinks';
import { AgentForm } from './AgentForm';
import { agentBody } from './agent-form';
import { BACK_TO_AGENTS, useOpenWhenCreated } from './saved-page';
import { AGENTS_KEY, agentQuery, createAgent, deleteAgent, updateAgent } from './studio-queries';
import { AgentToolsPanel } from './tools/AgentToolsPanel';
import { UsageMeter } from './UsageMeter';

/** A saved agent's page. */
const OPEN_AGENT = (agentId: string) => ({ to: '/agents/$agentId', params: { agentId } }) as const;

/** A new AI agent; once saved, its page opens. */
export function NewAgentPage() {
  const queryClient = useQueryClient();
  const setCreatedId = useOpenWhenCreated(OPEN_AGENT);
  return (
    <div className="h-full overflow-y-auto">
      <PageHeader title="New agent" description="An AI agent: the model it runs on, what it is told, and its limits." />
      <div className="mx-auto max-w-3xl p-4">
        {BACK_TO_AGENTS}
        <AgentForm
          submitLabel="Create agent"
          onSave={async (values) => {
            const agent = await createAgent(agentBody(values));
            queryClient.setQueryData(agentQuery(agent.id).queryKey, agent);
            void queryClient.invalidateQueries({ queryKey: [...AGENTS_KEY, 'list'] });
            setCreatedId(agent.id);
            return agent;
          }}
        />
      </div>
    </div>
  );
}

/** A saved agent: its settings, and deleting it. */
export function AgentPage() {
  const { agentId } = useParams({ from: '/signed-in/agents/$agentId' });
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const agent = useQuery(agentQuery(agentId));
  return (
    <div className="h-full overflow-y-auto">
      <PageHeader
        title={agent.data?.name ?? 'Agent'}
        description="How the agent runs, its limits and its monthly budget."
        actions={
          <Link
            to="/agents/$agentId/playground"
            params={{ agentId }}
            className="rounded-md border border-zinc-300 px-3 py-1.5 text-sm font-medium hover:bg-zinc-50 dark:border-zinc-700 dark:hover:bg-zinc-800"
          >
            Playground
          </Link>
        }
      />
      <div className="mx-auto flex max-w-3xl flex-col gap-6 p-4">
        <div>{BACK_TO_AGENTS}</div>
        <ErrorNotice error={agent.error} />
        {agent.data ? (
          <>
            <UsageMeter usage={agent.data.usage} />
            <AgentActivityLinks agentId={agentId} />
            <AgentForm
              key={agent.data.id}
              agent={agent.data}
              submitLabel="Save agent"
              onSave={async (values) => {
                const saved = await updateAgent(agentId, agentBody(values, agent.data));
                queryClient.setQueryData(agentQuery(agentId).queryKey, saved);
                void queryClient.invalidateQueries({ queryKey: [...AGENTS_KEY, 'list'] });
                return saved;
              }}
            />
            <AgentToolsPanel agentId={agentId} />
            <div className="flex flex-wrap gap-2">
              <DeleteAction
                label="Delete agent"
                title={`Delete ${agent.data.name}?`}
                description="The agent stops answering, and it and its runs and chats are no longer listed. This cannot be undone."
                remove={() => deleteAgent(agentId)}
                onDeleted={async () => {
                  queryClient.removeQueries({ queryKey: [...AGENTS_KEY, agentId] });
                  await queryClient.invalidateQueries({ queryKey: [...AGENTS_KEY, 'list'] });
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
