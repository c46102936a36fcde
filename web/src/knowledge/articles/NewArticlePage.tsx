import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams, useSearch } from '@tanstack/react-router';
import { ArrowLeft } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { Button } from '../../ui/Button';
import { InputField, SelectField } from '../../ui/FormField';
import { FormProblems } from '../../ui/FormProblems';
import { PageHeader } from '../../ui/PageHeader';
import { showApiError } from '../../ui/use-api-form';
import { collectionsQuery } from '../knowledge-api';
import { ARTICLES_KEY, articleKey, createArticle } from './articles-api';

const ROUTE = '/signed-in/knowledge/$helpCenterId/articles/new';

/** A new draft: its title and the collection it is filed in; the editor opens once it is made. */
export function NewArticlePage() {
  const { helpCenterId } = useParams({ from: ROUTE });
  const search = useSearch({ from: ROUTE });
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const collections = useQuery(collectionsQuery(helpCenterId));
  const form = useForm({
    values: { title: search.title ?? '', collectionId: search.collectionId ?? collections.data?.[0]?._id ?? '' },
  });
  const { register, handleSubmit, formState } = form;
  const submit = handleSubmit(async (values) => {
    try {
      const article = await createArticle(values);
      queryClient.setQueryData(articleKey(article._id), article);
      void queryClient.invalidateQueries({ queryKey: [...ARTICLES_KEY, 'list'] });
      await navigate({ to: '/knowledge/$helpCenterId/articles/$articleId', params: { helpCenterId, articleId: article._id } });
    } catch (error) {
      showApiError(form, error);
    }
  });
  return (
    <div className="h-full overflow-y-auto">
      <div className="px-4 pt-3">
        <Link
          to="/knowledge/$helpCenterId/articles"
          params={{ helpCenterId }}
          className="inline-flex items-center gap-1 text-sm text-blue-700 hover:underline dark:text-blue-400"
        >
          <ArrowLeft size={14} aria-hidden />
          All articles
        </Link>
      </div>
      <PageHeader title="New article" description="A draft: readers see it once it is published." />
      <form aria-label="New article" onSubmit={submit} noValidate className="mx-auto flex max-w-xl flex-col gap-3 p-4">
        <FormProblems errors={formState.errors} />
        <InputField label="Title" error={formState.errors.title?.message} {...register('title')} />
        <SelectField
          label="Collection"
          error={formState.errors.collectionId?.message}
          options={(collections.data ?? []).map((collection) => ({ value: collection._id, label: collection.name }))}
          {...register('collectionId')}
        />
        {collections.data?.length === 0 ? (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">Add a collection to the help center first.</p>
        ) : null}
        <div className="flex justify-end">
          <Button type="submit" variant="primary" disabled={formState.isSubmitting}>
            {formState.isSubmitting ? 'Creating…' : 'Create article'}
          </Button>
        </div>
      </form>
    </div>
  );
}
