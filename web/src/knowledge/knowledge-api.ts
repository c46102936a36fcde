import { queryOptions } from '@tanstack/react-query';
import { api, helpCenterApi, unwrap } from '../api/client';
import type { paths } from '../api/help-center';
import { readAllPages } from '../api/read-all-pages';

type JsonOf<Response> = Response extends { content: { 'application/json': infer Body } } ? Body : never;
type BodyOf<Operation> = Operation extends { requestBody?: infer Body } ? JsonOf<NonNullable<Body>> : never;

export type HelpCenter = JsonOf<paths['/help-centers/{id}']['get']['responses'][200]>['data'];
export type HelpCenterUpdate = BodyOf<paths['/help-centers/{id}']['patch']>;
export type Collection = JsonOf<paths['/collections/{id}']['get']['responses'][200]>['data'];
export type CollectionCreate = BodyOf<paths['/collections']['post']>;
export type CollectionUpdate = BodyOf<paths['/collections/{id}']['patch']>;

export const HELP_CENTERS_KEY = ['help-centers'] as const;
export const collectionsKey = (helpCenterId: string) => ['collections', helpCenterId] as const;

const PAGE = 100;

/** The organization's help centers, oldest first. */
export const helpCentersQuery = queryOptions({
  queryKey: HELP_CENTERS_KEY,
  queryFn: () =>
    readAllPages((cursor) => unwrap(helpCenterApi.GET('/help-centers', { params: { query: { limit: PAGE, cursor } } }))),
});

export const helpCenterQuery = (id: string) =>
  queryOptions({
    queryKey: [...HELP_CENTERS_KEY, id],
    queryFn: async () => (await unwrap(helpCenterApi.GET('/help-centers/{id}', { params: { path: { id } } }))).data,
  });

/** Every collection of a help center: pages of top-level collections, each with its whole subtree. */
export const collectionsQuery = (helpCenterId: string) =>
  queryOptions({
    queryKey: collectionsKey(helpCenterId),
    queryFn: () =>
      readAllPages((cursor) =>
        unwrap(helpCenterApi.GET('/collections', { params: { query: { helpCenterId, limit: PAGE, cursor } } })),
      ),
  });

export async function createHelpCenter(name: string): Promise<HelpCenter> {
  return (await unwrap(helpCenterApi.POST('/help-centers', { body: { name } }))).data;
}

export async function updateHelpCenter(id: string, body: HelpCenterUpdate): Promise<HelpCenter> {
  return (await unwrap(helpCenterApi.PATCH('/help-centers/{id}', { params: { path: { id } }, body }))).data;
}

export async function createCollection(body: CollectionCreate): Promise<Collection> {
  return (await unwrap(helpCenterApi.POST('/collections', { body }))).data;
}

export async function updateCollection(id: string, body: CollectionUpdate): Promise<Collection> {
  return (await unwrap(helpCenterApi.PATCH('/collections/{id}', { params: { path: { id } }, body }))).data;
}

export async function deleteCollection(id: string): Promise<Collection> {
  return (await unwrap(helpCenterApi.DELETE('/collections/{id}', { params: { path: { id } } }))).data;
}

/** Uploads an image as an attachment of the organization (the platform's upload), for a logo. */
export async function uploadImage(file: File): Promise<{ id: string; fileName: string }> {
  const form = new FormData();
  form.append('file', file, file.name);
  const { data } = await unwrap(
    api.POST('/v1/attachments', { body: form as never, bodySerializer: (body: unknown) => body as FormData }),
  );
  return { id: data.id, fileName: data.fileName };
}
