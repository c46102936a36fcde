import { type Config, publicBaseUrl } from '../../config.js';
import type { AttachmentRow } from './attachment.repository.js';

/** The `{id, fileName, contentType, size, url}` other resources show for each attachment. */
export function toAttachmentSummary(row: Pick<AttachmentRow, 'id' | 'file_name' | 'content_type' | 'size'>, config: Config) {
  return {
    id: row.id,
    fileName: row.file_name,
    contentType: row.content_type,
    size: Number(row.size),
    url: `${publicBaseUrl(config, 'platform')}/v1/attachments/${row.id}`,
  };
}

export function toAttachmentMetadata(row: AttachmentRow, config: Config) {
  return {
    ...toAttachmentSummary(row, config),
    sha256: row.sha256,
    uploadedById: row.uploaded_by_id,
    createdAt: row.created_at,
  };
}
