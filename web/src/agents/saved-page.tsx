import { Link, type LinkProps, useNavigate } from '@tanstack/react-router';
import { useEffect, useState } from 'react';

/** The link back to the AI agents area, above each of its item pages. */
export const BACK_TO_AGENTS = (
  <Link to="/agents" className="mb-3 inline-block text-sm text-blue-700 hover:underline dark:text-blue-400">
    ← AI agents
  </Link>
);

/**
 * For a "new item" page: call the returned function with the saved item's id, and its page opens
 * once the form has shown itself saved (so leaving the form asks nothing).
 */
export function useOpenWhenCreated(pageOf: (id: string) => LinkProps): (id: string) => void {
  const navigate = useNavigate();
  const [createdId, setCreatedId] = useState<string | null>(null);
  useEffect(() => {
    if (createdId) {
      void navigate(pageOf(createdId) as Parameters<typeof navigate>[0]);
    }
  }, [createdId, navigate, pageOf]);
  return setCreatedId;
}
