import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { type AgentTool, deleteAgentTool, toolsKey, updateAgentTool } from './tool-queries';

const TYPE_LABELS = { built_in: 'Built-in', external_tool: 'External', mcp_server: 'MCP server' } as const;

/** One tool the agent is given: what it is, whether it asks first, on or off, and removing it. */
export function AgentToolRow({ tool, label, description }: { tool: AgentTool; label: string; description?: string }) {
  const queryClient = useQueryClient();
  const id = useId();
  const refresh = () => queryClient.invalidateQueries({ queryKey: toolsKey(tool.agent_id) });
  // The switch shows the choice in the same render as the click: the mutation's own pending state
  // reaches React a tick later, and a controlled checkbox would flick back to the saved value meanwhile.
  const [chosen, setChosen] = useState<boolean | null>(null);
  const toggle = useMutation({
    mutationFn: (enabled: boolean) => updateAgentTool(tool, { is_enabled: enabled }),
    // The saved tool in the list at once, so the switch does not flick back while the list reloads.
    onSuccess: (saved) => {
      queryClient.setQueryData<AgentTool[]>(toolsKey(tool.agent_id), (list) =>
        list?.map((item) => (item.id === saved.id ? saved : item)),
      );
      return refresh();
    },
    onSettled: () => setChosen(null),
  });
  const remove = useMutation({ mutationFn: () => deleteAgentTool(tool), onSuccess: refresh });
  const url = tool.tool_type === 'external_tool' ? tool.configuration?.url : undefined;
  return (
    <li aria-labelledby={`${id}-name`} className="flex flex-col gap-2 py-3">
      <div className="flex flex-wrap items-center gap-2">
        <span id={`${id}-name`} className="font-medium">
          {label}
        </span>
        <Badge tone="blue">{TYPE_LABELS[tool.tool_type]}</Badge>
        {tool.require_approval ? <Badge tone="amber">Asks for approval</Badge> : null}
        {tool.is_enabled ? null : <Badge>Disabled</Badge>}
        <div className="ml-auto flex items-center gap-3">
          <label className="flex items-center gap-1.5 text-sm">
            <input
              type="checkbox"
              className="h-4 w-4"
              checked={chosen ?? tool.is_enabled}
              disabled={chosen !== null}
              aria-label={`${label} enabled`}
              onChange={(event) => {
                setChosen(event.target.checked);
                toggle.mutate(event.target.checked);
              }}
            />
            Enabled
          </label>
          <Button variant="ghost" aria-label={`Remove ${label}`} disabled={remove.isPending} onClick={() => remove.mutate()}>
            Remove
          </Button>
        </div>
      </div>
      {description ? <p className="text-sm text-zinc-600 dark:text-zinc-400">{description}</p> : null}
      {typeof url === 'string' ? <p className="break-all font-mono text-xs text-zinc-600 dark:text-zinc-400">{url}</p> : null}
      <ErrorNotice error={toggle.error ?? remove.error} />
    </li>
  );
}
