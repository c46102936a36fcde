import { queryOptions } from '@tanstack/react-query';
import { api, helpCenterApi, unwrap } from '../../api/client';
import type { paths } from '../../api/help-center';

type JsonOf<Response> = Response extends { content: { 'application/json': infer Body } } ? Body : never;
type BodyOf<Operation> = Operation extends { requestBody?: infer Body } ? JsonOf<NonNullable<Body>> : never;

export type Article = JsonOf<paths['/articles/{id}']['get']['responses'][200]>['data'];
export type ArticleUpdate = BodyOf<paths['/articles/{id}']['patch']>;
export type ArticleCreate = BodyOf<paths['/articles']['post']>;
export type ArticleListQuery = NonNullable<paths['/articles']['get']['parameters']['query']>;

export const ARTICLES_KEY = ['articles'] as const;
export const articleKey = (id: string) => [...ARTICLES_KEY, 'one', id] as const;

/** A page of articles matching the filters, lowest uid first. */
export const articlesQuery = (query: ArticleListQuery) =>
  queryOptions({
    queryKey: [...ARTICLES_KEY, 'list', query],
    queryFn: () => unwrap(helpCenterApi.GET('/articles', { params: { query } })),
  });

export const articleQuery = (id: string) =>
  queryOptions({
    queryKey: articleKey(id),
    queryFn: async () => (await unwrap(helpCenterApi.GET('/articles/{id}', { params: { path: { id } } }))).data,
  });

export async function createArticle(body: ArticleCreate): Promise<Article> {
  return (await unwrap(helpCenterApi.POST('/articles', { body }))).data;
}

export async function updateArticle(id: string, body: ArticleUpdate): Promise<Article> {
  return (await unwrap(helpCenterApi.PATCH('/articles/{id}', { params: { path: { id } }, body }))).data;
}

export async function publishArticle(id: string): Promise<Article> {
  return (await unwrap(helpCenterApi.POST('/articles/{id}/publish', { params: { path: { id } } }))).data;
}

export async function unpublishArticle(id: string): Promise<Article> {
  return (await unwrap(helpCenterApi.POST('/articles/{id}/unpublish', { params: { path: { id } } }))).data;
}

/** The largest file an upload takes: an image over it is refused before it is sent. */
export const attachmentLimitsQuery = queryOptions({
  queryKey: ['attachment-limits'],
  queryFn: async () => (await unwrap(api.GET('/v1/attachments/limits'))).data,
  staleTime: Number.POSITIVE_INFINITY,
});

/** Where the console shows an uploaded attachment (with the session's cookie). */
export const attachmentUrl = (id: string) => `/v1/attachments/${id}`;
