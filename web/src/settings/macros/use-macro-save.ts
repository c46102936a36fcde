import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { flushSync } from 'react-dom';
import type { UseFormReturn } from 'react-hook-form';
import { api, unwrap } from '../../api/client';
import type { Macro } from '../../api/types';
import { showApiError } from '../../ui/use-api-form';
import { MACRO_API_NAMES, type MacroBody, type MacroFormValues, macroBody, macroFormValues } from './macro-form';

/**
 * Saving and deleting the macro of the form: a new one is created and the page moves to it; a
 * refused save keeps what was typed and shows the API's message beside the field it names.
 */
export function useMacroSave(form: UseFormReturn<MacroFormValues>, macro: Macro | undefined) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [saved, setSaved] = useState(false);
  const save = useMutation({
    mutationFn: async (body: MacroBody) =>
      macro
        ? (await unwrap(api.PATCH('/v1/macros/{macroId}', { params: { path: { macroId: macro.id } }, body }))).data
        : (await unwrap(api.POST('/v1/macros', { body }))).data,
  });
  const remove = useMutation({
    mutationFn: async (macroId: string) => unwrap(api.DELETE('/v1/macros/{macroId}', { params: { path: { macroId } } })),
  });

  const onSubmit = form.handleSubmit(async (values) => {
    setSaved(false);
    try {
      const result = await save.mutateAsync(macroBody(values));
      queryClient.setQueryData(['macros', result.id], result);
      void queryClient.invalidateQueries({ queryKey: ['macros'] });
      // The guard against leaving must see the form clean before the page moves to the saved macro.
      flushSync(() => form.reset(macroFormValues(result)));
      setSaved(true);
      if (!macro) {
        await navigate({ to: '/settings/macros/$macroId', params: { macroId: result.id }, replace: true });
      }
    } catch (error) {
      showApiError(form, error, MACRO_API_NAMES);
    }
  });

  /** Answers false when the API refused (its message is on the form). */
  const onDelete = async (): Promise<boolean> => {
    if (!macro) {
      return false;
    }
    try {
      await remove.mutateAsync(macro.id);
    } catch (error) {
      showApiError(form, error);
      return false;
    }
    queryClient.removeQueries({ queryKey: ['macros', macro.id] });
    void queryClient.invalidateQueries({ queryKey: ['macros'] });
    flushSync(() => form.reset());
    await navigate({ to: '/settings/macros' });
    return true;
  };

  return { onSubmit, onDelete, deleting: remove.isPending, saved };
}
