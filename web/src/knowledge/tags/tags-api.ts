import { queryOptions } from '@tanstack/react-query';
import { helpCenterApi, unwrap } from '../../api/client';
import type { paths } from '../../api/help-center';
import { readAllPages } from '../../api/read-all-pages';

type JsonOf<Response> = Response extends { content: { 'application/json': infer Body } } ? Body : never;

export type Tag = JsonOf<paths['/tags']['post']['responses'][201]>['data'];

export const TAGS_KEY = ['tags'] as const;

/** Every tag of the organization, alphabetically. */
export const tagsQuery = queryOptions({
  queryKey: TAGS_KEY,
  queryFn: () => readAllPages((cursor) => unwrap(helpCenterApi.GET('/tags', { params: { query: { limit: 100, cursor } } }))),
});

export async function createTag(name: string): Promise<Tag> {
  return (await unwrap(helpCenterApi.POST('/tags', { body: { name } }))).data;
}

export async function renameTag(tagId: string, name: string): Promise<Tag> {
  return (await unwrap(helpCenterApi.PATCH('/tags/{tagId}', { params: { path: { tagId } }, body: { name } }))).data;
}

export async function mergeTag(tagId: string, intoTagId: string): Promise<Tag> {
  return (await unwrap(helpCenterApi.POST('/tags/{tagId}/merge', { params: { path: { tagId } }, body: { intoTagId } }))).data;
}

export async function deleteTag(tagId: string): Promise<Tag> {
  return (await unwrap(helpCenterApi.DELETE('/tags/{tagId}', { params: { path: { tagId } } }))).data;
}
