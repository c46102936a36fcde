import { z } from 'zod';
import type { BodyOf, Macro } from '../../api/types';

export type MacroBody = BodyOf<'/v1/macros', 'post'>;
type MacroActions = NonNullable<MacroBody['actions']>;

/**
 * The macro editor's values. The form checks only what it must to send something; the API judges
 * the rest (lengths, placeholders, actions naming what exists) and its messages show beside the
 * fields. A status or priority is picked by name (`name:Open`, matched in the ticket's team when
 * applied) or kept by the id it was saved with (`id:<ULID>`); '' changes nothing.
 */
export const macroFormSchema = z.object({
  name: z.string().refine((name) => name.trim() !== '', 'Give the macro a name'),
  description: z.string(),
  content: z.string().refine((content) => content.trim() !== '', 'Write the reply the macro posts'),
  /** '' for a personal macro. */
  teamId: z.string(),
  commentVisibility: z.enum(['public', 'private']),
  shouldSendEmail: z.boolean(),
  actions: z.object({
    status: z.string(),
    priority: z.string(),
    /** '' no change, `none` unassign, `me` whoever applies it, or a user id. */
    assignedAgentId: z.string(),
    addTagIds: z.array(z.string()),
  }),
});

export type MacroFormValues = z.infer<typeof macroFormSchema>;

/** The API's paths that the form shows under another name. */
export const MACRO_API_NAMES: Record<string, string> = {
  'actions.statusName': 'actions.status',
  'actions.statusId': 'actions.status',
  'actions.priorityName': 'actions.priority',
  'actions.priorityId': 'actions.priority',
};

export const EMPTY_MACRO: MacroFormValues = {
  name: '',
  description: '',
  content: '',
  teamId: '',
  commentVisibility: 'public',
  shouldSendEmail: false,
  actions: { status: '', priority: '', assignedAgentId: '', addTagIds: [] },
};

function optionValue(id: string | undefined, name: string | undefined): string {
  if (name !== undefined) {
    return `name:${name}`;
  }
  return id === undefined ? '' : `id:${id}`;
}

export function macroFormValues(macro: Macro): MacroFormValues {
  const { actions } = macro;
  return {
    name: macro.name,
    description: macro.description ?? '',
    content: macro.content,
    teamId: macro.teamId ?? '',
    commentVisibility: macro.commentVisibility,
    shouldSendEmail: macro.shouldSendEmail,
    actions: {
      status: optionValue(actions.statusId, actions.statusName),
      priority: optionValue(actions.priorityId, actions.priorityName),
      assignedAgentId: actions.assignedAgentId === undefined ? '' : (actions.assignedAgentId ?? 'none'),
      addTagIds: actions.addTagIds ?? [],
    },
  };
}

/** `name:X` → {[nameKey]: X}, `id:X` → {[idKey]: X}, '' → nothing. */
function optionAction<IdKey extends string, NameKey extends string>(value: string, idKey: IdKey, nameKey: NameKey) {
  if (value.startsWith('name:')) {
    return { [nameKey]: value.slice('name:'.length) };
  }
  return value.startsWith('id:') ? { [idKey]: value.slice('id:'.length) } : {};
}

/** The actions as the API takes them: only those the macro takes, so `{}` for a reply alone. */
export function macroActions(values: MacroFormValues['actions']): MacroActions {
  const assignee = values.assignedAgentId;
  return {
    ...optionAction(values.status, 'statusId', 'statusName'),
    ...optionAction(values.priority, 'priorityId', 'priorityName'),
    ...(assignee === '' ? {} : { assignedAgentId: assignee === 'none' ? null : assignee }),
    ...(values.addTagIds.length > 0 ? { addTagIds: values.addTagIds } : {}),
  };
}

/** The body of `POST /v1/macros` and of `PATCH /v1/macros/{id}` (every field sent, actions replaced whole). */
export function macroBody(values: MacroFormValues): MacroBody {
  return {
    name: values.name,
    description: values.description.trim() === '' ? null : values.description,
    content: values.content,
    teamId: values.teamId === '' ? null : values.teamId,
    commentVisibility: values.commentVisibility,
    shouldSendEmail: values.commentVisibility === 'public' && values.shouldSendEmail,
    actions: macroActions(values.actions),
  };
}
