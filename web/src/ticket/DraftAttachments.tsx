import { Loader2, X } from 'lucide-react';
import { attachmentUrl, formatSize } from './CommentAttachments';
import type { DraftAttachment } from './draft-storage';

/** Files attached to the draft (uploaded already), and those still uploading. */
export function DraftAttachments({
  attachments,
  uploading,
  onRemove,
}: {
  attachments: readonly DraftAttachment[];
  uploading: readonly { key: string; name: string }[];
  onRemove: (id: string) => void;
}) {
  if (attachments.length === 0 && uploading.length === 0) {
    return null;
  }
  return (
    <ul aria-label="Files to send" className="flex flex-wrap gap-2 px-3 pb-2">
      {attachments.map((file) => (
        <li
          key={file.id}
          className="flex items-center gap-1.5 rounded-md border border-zinc-200 bg-zinc-50 py-1 pr-1 pl-1.5 text-xs dark:border-zinc-700 dark:bg-zinc-800"
        >
          {file.contentType.startsWith('image/') ? (
            <img src={attachmentUrl(file.id)} alt="" className="h-8 w-8 rounded object-cover" />
          ) : null}
          <span className="max-w-40 truncate">{file.fileName}</span>
          <span className="text-zinc-500 dark:text-zinc-400">{formatSize(file.size)}</span>
          <button
            type="button"
            aria-label={`Remove attachment ${file.fileName}`}
            className="rounded p-0.5 hover:bg-zinc-200 dark:hover:bg-zinc-700"
            onClick={() => onRemove(file.id)}
          >
            <X size={12} aria-hidden />
          </button>
        </li>
      ))}
      {uploading.map(({ key, name }) => (
        <li
          key={key}
          className="flex items-center gap-1.5 rounded-md border border-dashed border-zinc-300 px-2 py-1 text-xs dark:border-zinc-700"
        >
          <Loader2 size={12} aria-hidden className="animate-spin" />
          <span className="max-w-40 truncate">Uploading {name}…</span>
        </li>
      ))}
    </ul>
  );
}
