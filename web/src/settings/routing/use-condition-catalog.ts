import { useQuery } from '@tanstack/react-query';
import {
  type ConditionCatalog,
  conditionCatalog,
  customFieldChoice,
  fieldChoice,
  optionChoices,
  useAccountChoices,
} from '../../ui/conditions/condition-catalog';
import { REQUESTOR_DOMAIN } from '../../ui/conditions/conditions';
import { prioritiesQuery, statusesQuery, teamTagsQuery, ticketFieldsQuery } from './routing-api';

/**
 * What conditions of `teamId`'s rules can test: the ticket's own fields, the team's priorities,
 * statuses and tags, the organization's accounts and the ticket fields of the team and organization.
 */
export function useConditionCatalog(teamId: string): ConditionCatalog {
  const priorities = useQuery(prioritiesQuery(teamId));
  const statuses = useQuery(statusesQuery(teamId));
  const tags = useQuery(teamTagsQuery(teamId));
  const customFields = useQuery(ticketFieldsQuery(teamId));
  const accounts = useAccountChoices();
  return conditionCatalog(
    [
      fieldChoice('title', 'Title', 'text'),
      fieldChoice('description', 'Description', 'text'),
      fieldChoice('priority', 'Priority', 'option', optionChoices(priorities.data)),
      fieldChoice('status', 'Status', 'option', optionChoices(statuses.data)),
      fieldChoice('source', 'Source', 'text'),
      fieldChoice('requestorEmail', 'Requestor email', 'text'),
      fieldChoice(REQUESTOR_DOMAIN, 'Requestor domain', 'domain'),
      { ...fieldChoice('accountId', 'Account', 'option', accounts.options), paged: true },
      fieldChoice(
        'tags',
        'Tags',
        'tags',
        (tags.data ?? []).map((tag) => ({ value: tag.id, label: tag.name })),
      ),
      ...(customFields.data ?? []).map(customFieldChoice),
    ],
    accounts.pages,
  );
}
