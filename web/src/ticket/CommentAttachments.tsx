import { useQueries } from '@tanstack/react-query';
import { Paperclip } from 'lucide-react';
import { attachmentQuery } from './ticket-queries';

/** Bytes as people read them. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) {
    return `${bytes} B`;
  }
  if (bytes < 1024 * 1024) {
    return `${(bytes / 1024).toFixed(bytes < 10 * 1024 ? 1 : 0)} KB`;
  }
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** Where the API serves an attachment's bytes; the session cookie authorises the request. */
export function attachmentUrl(id: string): string {
  return `/v1/attachments/${encodeURIComponent(id)}`;
}

const PREVIEWABLE = /^image\/(png|jpe?g|gif|webp|avif|bmp)$/i;

/** A comment's files: images previewed, every file a download link. */
export function CommentAttachments({ ids }: { ids: readonly string[] }) {
  const files = useQueries({ queries: ids.map((id) => attachmentQuery(id)) });
  if (ids.length === 0) {
    return null;
  }
  return (
    <ul aria-label="Attachments" className="mt-2 flex flex-wrap gap-2">
      {ids.map((id, index) => {
        const file = files[index]?.data;
        const name = file?.fileName ?? 'Attachment';
        return (
          <li key={id}>
            <a
              href={attachmentUrl(id)}
              download={file?.fileName}
              className="flex flex-col gap-1 rounded-md border border-zinc-200 p-1.5 text-xs hover:bg-zinc-50 dark:border-zinc-700 dark:hover:bg-zinc-800"
            >
              {file && PREVIEWABLE.test(file.contentType) ? (
                <img src={attachmentUrl(id)} alt={name} loading="lazy" className="max-h-40 max-w-60 rounded object-contain" />
              ) : null}
              <span className="flex items-center gap-1">
                <Paperclip size={12} aria-hidden />
                <span className="max-w-48 truncate">{name}</span>
                {file ? <span className="text-zinc-500 dark:text-zinc-400">{formatSize(file.size)}</span> : null}
              </span>
            </a>
          </li>
        );
      })}
    </ul>
  );
}
