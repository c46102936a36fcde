import { Link } from '@tanstack/react-router';

const BACK = 'inline-block text-sm text-blue-700 hover:underline dark:text-blue-400';

/** The way back from a page of an agent to the agent's own page. */
export function BackToAgent({ agentId, name }: { agentId: string; name: string | undefined }) {
  return (
    <Link to="/agents/$agentId" params={{ agentId }} className={BACK}>
      ← {name ?? 'Agent'}
    </Link>
  );
}
