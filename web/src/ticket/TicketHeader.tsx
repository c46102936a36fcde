import { useQuery } from '@tanstack/react-query';
import { MessageCircle } from 'lucide-react';
import { type KeyboardEvent, useId } from 'react';
import { isChatTicket } from '../api/ticket-source';
import type { Ticket } from '../api/types';
import { Badge } from '../ui/Badge';
import { ErrorNotice } from '../ui/ErrorNotice';
import { CustomFieldsEditor } from './CustomFieldsEditor';
import { TagEditor } from './TagEditor';
import { moveTicketToTeam, patchTicket, type TicketChange } from './ticket-mutations';
import { prioritiesQuery, statusesQuery, teamsQuery, usersQuery } from './ticket-queries';
import { useFieldDraft } from './use-field-draft';

const SELECT =
  'w-full rounded-md border border-zinc-300 bg-white px-2 py-1.5 text-sm dark:border-zinc-700 dark:bg-zinc-900 disabled:opacity-60';

/** A labelled native select: fast, accessible, and the phone's own picker at 390 px. */
function FieldSelect({
  label,
  value,
  onChange,
  children,
  disabled,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  children: React.ReactNode;
  disabled?: boolean;
}) {
  const id = useId();
  return (
    <div className="flex min-w-0 flex-col gap-0.5">
      <label htmlFor={id} className="text-xs font-medium text-zinc-500 dark:text-zinc-400">
        {label}
      </label>
      <select id={id} className={SELECT} value={value} disabled={disabled} onChange={(event) => onChange(event.target.value)}>
        {children}
      </select>
    </div>
  );
}

/** The title, edited where it is shown: Enter or leaving the field saves, Escape puts it back. */
function TitleField({ title, onSave }: { title: string; onSave: (title: string) => void }) {
  const field = useFieldDraft(title);
  const save = () => {
    const next = field.finish()?.trim();
    if (next && next !== title) {
      onSave(next);
    }
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.currentTarget.blur();
    } else if (event.key === 'Escape') {
      field.cancel();
      event.currentTarget.blur();
    }
  };
  return (
    <input
      aria-label="Title"
      value={field.value}
      maxLength={500}
      onChange={(event) => field.edit(event.target.value)}
      onBlur={save}
      onKeyDown={onKeyDown}
      className="w-full min-w-0 rounded-md border border-transparent bg-transparent px-1 py-0.5 text-lg font-semibold hover:border-zinc-300 focus:border-zinc-400 dark:hover:border-zinc-700"
    />
  );
}

/** Identifier, title and every field of the ticket, each changed in place through `change`. */
export function TicketHeader({
  ticket,
  change,
  error,
}: {
  ticket: Ticket;
  change: (change: TicketChange) => void;
  error: unknown;
}) {
  const statuses = useQuery(statusesQuery(ticket.teamId));
  const priorities = useQuery(prioritiesQuery(ticket.teamId));
  const users = useQuery(usersQuery);
  const teams = useQuery(teamsQuery);
  const id = ticket.id;
  return (
    <header className="flex flex-col gap-3 border-b border-zinc-200 p-4 dark:border-zinc-800">
      <div className="flex min-w-0 items-center gap-2">
        <span className="shrink-0 font-mono text-sm text-zinc-500 dark:text-zinc-400">{ticket.ticketIdentifier}</span>
        <h1 className="min-w-0 flex-1">
          <TitleField
            title={ticket.title}
            onSave={(title) => change({ optimistic: { title }, request: patchTicket(id, { title }) })}
          />
        </h1>
        {isChatTicket(ticket) ? (
          <Badge tone="blue">
            <MessageCircle size={12} aria-hidden className="mr-1 inline-block align-[-1px]" />
            Chat
          </Badge>
        ) : null}
        {ticket.isClosed ? <Badge tone="green">Closed</Badge> : null}
        {ticket.isPrivate ? <Badge tone="violet">Private</Badge> : null}
      </div>
      <div className="grid grid-cols-2 gap-3 md:grid-cols-4">
        <FieldSelect
          label="Status"
          value={ticket.statusId}
          onChange={(statusId) => {
            const status = statuses.data?.find((option) => option.id === statusId);
            change({
              optimistic: {
                statusId,
                status: status?.displayName ?? ticket.status,
                isClosed: status?.isClosed ?? ticket.isClosed,
              },
              request: patchTicket(id, { statusId }),
            });
          }}
        >
          {statuses.data ? null : <option value={ticket.statusId}>{ticket.status}</option>}
          {statuses.data?.map((status) => (
            <option key={status.id} value={status.id}>
              {status.displayName}
            </option>
          ))}
        </FieldSelect>
        <FieldSelect
          label="Priority"
          value={ticket.priorityId}
          onChange={(priorityId) => {
            const priority = priorities.data?.find((option) => option.id === priorityId);
            change({
              optimistic: { priorityId, priority: priority?.displayName ?? ticket.priority },
              request: patchTicket(id, { priorityId }),
            });
          }}
        >
          {priorities.data ? null : <option value={ticket.priorityId}>{ticket.priority}</option>}
          {priorities.data?.map((priority) => (
            <option key={priority.id} value={priority.id}>
              {priority.displayName}
            </option>
          ))}
        </FieldSelect>
        <FieldSelect
          label="Assignee"
          value={ticket.assignedAgentId ?? ''}
          onChange={(value) => {
            const assignedAgentId = value === '' ? null : value;
            const user = users.data?.find((candidate) => candidate.id === assignedAgentId);
            change({
              optimistic: { assignedAgentId, assignedAgent: user?.name ?? null, assignedAgentEmail: user?.email ?? null },
              request: patchTicket(id, { assignedAgentId }),
            });
          }}
        >
          <option value="">Unassigned</option>
          {ticket.assignedAgentId && !users.data?.some((user) => user.id === ticket.assignedAgentId) ? (
            <option value={ticket.assignedAgentId}>{ticket.assignedAgent ?? ticket.assignedAgentEmail}</option>
          ) : null}
          {users.data?.map((user) => (
            <option key={user.id} value={user.id}>
              {user.name}
            </option>
          ))}
        </FieldSelect>
        <FieldSelect
          label="Team"
          value={ticket.teamId}
          onChange={(teamId) => {
            const team = teams.data?.find((candidate) => candidate.id === teamId);
            change({ optimistic: { teamId, teamName: team?.name ?? ticket.teamName }, request: moveTicketToTeam(id, teamId) });
          }}
        >
          {teams.data?.some((team) => team.id === ticket.teamId) ? null : (
            <option value={ticket.teamId}>{ticket.teamName}</option>
          )}
          {teams.data
            ?.filter((team) => !team.archivedAt || team.id === ticket.teamId)
            .map((team) => (
              <option key={team.id} value={team.id}>
                {team.name}
              </option>
            ))}
        </FieldSelect>
      </div>
      <TagEditor ticket={ticket} change={change} />
      <CustomFieldsEditor ticket={ticket} change={change} />
      <ErrorNotice error={error} />
    </header>
  );
}
