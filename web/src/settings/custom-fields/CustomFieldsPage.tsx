import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { Plus, Search } from 'lucide-react';
import { useDeferredValue, useState } from 'react';
import { api, unwrap } from '../../api/client';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { LoadMore, PageHeader } from '../../ui/PageHeader';
import { useCursorPages } from '../../ui/use-cursor-pages';
import { FIELD_SOURCES, type FieldSource, fieldSourceLabel, fieldTypeLabel } from './custom-field-form';
import { CUSTOM_FIELDS_KEY, type CustomField, teamsQuery } from './custom-field-queries';

const PAGE_SIZE = 50;
const CONTROL = 'rounded-md border border-zinc-300 bg-white px-3 py-1.5 text-sm dark:border-zinc-700 dark:bg-zinc-900';

interface Filters {
  term: string;
  teamId: string;
  source: FieldSource | '';
}

/** One page of fields: the search endpoint when a name is typed, the list otherwise; both by cursor. */
async function fieldsPage(filters: Filters, cursor: string | undefined) {
  const scope = {
    limit: PAGE_SIZE,
    ...(cursor ? { cursor } : {}),
    ...(filters.teamId ? { teamId: filters.teamId, onlyTeamFields: true } : {}),
    ...(filters.source ? { source: filters.source } : {}),
  };
  const answer = filters.term
    ? await unwrap(api.GET('/v1/custom-field/search', { params: { query: { ...scope, searchTerm: filters.term } } }))
    : await unwrap(api.GET('/v1/custom-field', { params: { query: scope } }));
  return { data: answer.data, nextCursor: answer.nextCursor };
}

/** The organization's custom fields: searched by name, filtered by team and record, a page at a time. */
export function CustomFieldsPage() {
  const navigate = useNavigate();
  const [term, setTerm] = useState('');
  const [teamId, setTeamId] = useState('');
  const [source, setSource] = useState<FieldSource | ''>('');
  const filters: Filters = { term: useDeferredValue(term.trim()), teamId, source };
  const teams = useQuery(teamsQuery);
  const fields = useCursorPages([...CUSTOM_FIELDS_KEY, 'list', filters], (cursor) => fieldsPage(filters, cursor));
  const filtered = Boolean(filters.term || teamId || source);
  return (
    <>
      <PageHeader
        title="Custom fields"
        description="The extra details people record on tickets, accounts and contacts."
        actions={
          // A button, as the page's other "New …" actions are; it opens the new field's own page.
          <Button variant="primary" onClick={() => navigate({ to: '/settings/custom-fields/new' })}>
            <Plus size={14} aria-hidden />
            New field
          </Button>
        }
      />
      <search aria-label="Filter fields" className="flex flex-wrap items-center gap-2 px-4 py-3">
        <div className="relative min-w-0 flex-1 basis-48">
          <Search size={14} aria-hidden className="absolute top-2.5 left-2.5 text-zinc-500" />
          <input
            type="search"
            aria-label="Search fields by name"
            placeholder="Search by name"
            value={term}
            onChange={(event) => setTerm(event.target.value)}
            className={`${CONTROL} w-full pl-8`}
          />
        </div>
        <select aria-label="Team" value={teamId} onChange={(event) => setTeamId(event.target.value)} className={CONTROL}>
          <option value="">All teams</option>
          {(teams.data ?? []).map((team) => (
            <option key={team.id} value={team.id}>
              {team.name}
            </option>
          ))}
        </select>
        <select
          aria-label="Record"
          value={source}
          onChange={(event) => setSource(event.target.value as FieldSource | '')}
          className={CONTROL}
        >
          <option value="">All records</option>
          {FIELD_SOURCES.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </search>
      <ErrorNotice error={fields.error} className="mx-4" />
      {fields.isPending ? <p className="px-4 text-sm text-zinc-500 dark:text-zinc-400">Loading…</p> : null}
      {!fields.isPending && fields.items.length === 0 && !fields.error ? <EmptyFields filtered={filtered} /> : null}
      {fields.items.length > 0 ? (
        <ul
          aria-label="Custom fields"
          className="divide-y divide-zinc-200 border-y border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800"
        >
          {fields.items.map((field) => (
            <FieldRow key={field.uid} field={field} teamName={teams.data?.find((team) => team.id === field.teamId)?.name} />
          ))}
        </ul>
      ) : null}
      <LoadMore hasMore={fields.hasMore} loading={fields.loadingMore} onLoadMore={() => void fields.loadMore()} />
    </>
  );
}

function FieldRow({ field, teamName }: { field: CustomField; teamName: string | undefined }) {
  return (
    <li>
      <Link
        to="/settings/custom-fields/$fieldId"
        params={{ fieldId: field.uid }}
        className="flex flex-wrap items-center gap-x-3 gap-y-1 px-4 py-2.5 text-sm hover:bg-zinc-50 dark:hover:bg-zinc-900"
      >
        <span className="min-w-0 flex-1 basis-40 truncate font-medium">{field.name}</span>
        <span className="text-zinc-600 dark:text-zinc-400">{fieldTypeLabel(field.fieldType)}</span>
        <span className="text-zinc-600 dark:text-zinc-400">{fieldSourceLabel(field.source)}</span>
        <span className="text-zinc-600 dark:text-zinc-400">{field.teamId ? (teamName ?? 'A team') : 'Whole organization'}</span>
        {field.isActive ? null : <Badge>Inactive</Badge>}
        {field.mandatoryOnCreation || field.mandatoryOnClose ? <Badge tone="amber">Required</Badge> : null}
      </Link>
    </li>
  );
}

function EmptyFields({ filtered }: { filtered: boolean }) {
  return (
    <div className="mx-4 rounded-lg border border-dashed border-zinc-300 p-6 text-center text-sm text-zinc-600 dark:border-zinc-700 dark:text-zinc-400">
      {filtered
        ? 'No field matches these filters. Clear the search or pick another team or record.'
        : 'No custom fields yet. Create one with "New field": a plan, an order number, a region, whatever your team needs to record.'}
    </div>
  );
}
