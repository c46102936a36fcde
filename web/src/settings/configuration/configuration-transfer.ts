import { api, unwrap } from '../../api/client';
import type { BodyOf, DataOf } from '../../api/types';

export type ConfigurationDocument = DataOf<'/v1/config/export', 'get'>;
export type ImportAnswer = DataOf<'/v1/config/import', 'post'>;
export type ImportChange = ImportAnswer['changes'][number];

/** The organization's set-up as the API exports it. */
export async function exportConfiguration(): Promise<ConfigurationDocument> {
  return (await unwrap(api.GET('/v1/config/export'))).data;
}

/** Judges a document (`dryRun`: lists the changes, writes nothing) or applies it, in one transaction. */
export async function importConfiguration(
  document: unknown,
  options: { dryRun: boolean; prune: boolean },
): Promise<ImportAnswer> {
  const body = document as BodyOf<'/v1/config/import', 'post'>;
  return (await unwrap(api.POST('/v1/config/import', { params: { query: options }, body }))).data;
}
