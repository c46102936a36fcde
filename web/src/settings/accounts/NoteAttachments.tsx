import { useQueries } from '@tanstack/react-query';
import { Paperclip, X } from 'lucide-react';
import { attachmentQuery } from './account-queries';
import { formatSize } from './note-files';

/** Where the API serves an attachment's bytes; the session cookie authorises the request. */
const attachmentUrl = (id: string) => `/v1/attachments/${encodeURIComponent(id)}`;

/** A note's files and links, each downloadable and removable. */
export function NoteAttachments({
  ids,
  removing,
  onRemove,
}: {
  ids: readonly string[];
  removing: string | null;
  onRemove: (id: string) => void;
}) {
  const files = useQueries({ queries: ids.map((id) => attachmentQuery(id)) });
  if (ids.length === 0) {
    return null;
  }
  return (
    <ul aria-label="Attachments" className="flex flex-wrap gap-2">
      {ids.map((id, index) => {
        const file = files[index]?.data;
        const name = file?.fileName ?? 'Attachment';
        return (
          <li
            key={id}
            className="flex items-center gap-1 rounded-md border border-zinc-200 py-0.5 pr-0.5 pl-2 text-xs dark:border-zinc-700"
          >
            <Paperclip size={12} aria-hidden />
            <a
              href={file?.url && !file.url.startsWith('/') ? file.url : attachmentUrl(id)}
              download={file?.fileName}
              className="max-w-48 truncate text-blue-700 hover:underline dark:text-blue-400"
            >
              {name}
            </a>
            {file && file.size > 0 ? <span className="text-zinc-500 dark:text-zinc-400">{formatSize(file.size)}</span> : null}
            <button
              type="button"
              aria-label={`Remove attachment ${name}`}
              disabled={removing === id}
              onClick={() => onRemove(id)}
              className="rounded p-0.5 text-zinc-500 hover:bg-zinc-100 hover:text-red-700 disabled:opacity-50 dark:text-zinc-400 dark:hover:bg-zinc-800"
            >
              <X size={12} aria-hidden />
            </button>
          </li>
        );
      })}
    </ul>
  );
}
