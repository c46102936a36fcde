import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { api, unwrap } from '../../api/client';
import { DeleteAction } from '../../ui/DeleteAction';
import { fieldSourceLabel } from './custom-field-form';
import { CUSTOM_FIELDS_KEY, type CustomField, customFieldQuery } from './custom-field-queries';

/**
 * "Delete field", asked first, then back to the list. The API deletes softly: the field leaves
 * every read (so every form of the console), a value can no longer be set, only cleared; values
 * already saved stay stored on their records, and the slug stays taken.
 */
export function DeleteCustomField({ field }: { field: CustomField }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const records = fieldSourceLabel(field.source).toLowerCase();
  return (
    <DeleteAction
      label="Delete field"
      title={`Delete ${field.name}?`}
      description={`The field leaves the forms of ${records} and can no longer be filled in. Values already saved stay stored on the ${records} but no longer show here; its slug (${field.slug}) stays taken.`}
      remove={() => unwrap(api.DELETE('/v1/custom-field/{uid}', { params: { path: { uid: field.uid } } }))}
      onDeleted={async () => {
        await queryClient.invalidateQueries({ queryKey: CUSTOM_FIELDS_KEY, refetchType: 'none' });
        // Unsaved edits of a deleted field have nothing left to save: leave without asking.
        await navigate({ to: '/settings/custom-fields', ignoreBlocker: true });
        queryClient.removeQueries({ queryKey: customFieldQuery(field.uid).queryKey });
      }}
    />
  );
}
