import { type ClipboardEvent, type DragEvent, useState } from 'react';
import { api, unwrap } from '../api/client';
import type { Draft, DraftAttachment } from './draft-storage';

async function upload(file: File): Promise<DraftAttachment> {
  const form = new FormData();
  form.append('file', file, file.name || 'pasted-file');
  const { data } = await unwrap(
    api.POST('/v1/attachments', { body: form as never, bodySerializer: (body: unknown) => body as FormData }),
  );
  return { id: data.id, fileName: data.fileName, contentType: data.contentType, size: data.size };
}

/**
 * Files for the draft, chosen, dropped or pasted: each uploaded in turn and added to the draft
 * once the API holds it. `uploading` lists those still on their way; the last failure is kept.
 */
export function useDraftUploads(update: (change: (draft: Draft) => Draft) => void) {
  const [uploading, setUploading] = useState<{ key: string; name: string }[]>([]);
  const [uploadError, setUploadError] = useState<unknown>(null);

  const attach = async (files: readonly File[]) => {
    if (files.length === 0) {
      return;
    }
    setUploadError(null);
    const pending = files.map((file) => ({ file, key: crypto.randomUUID(), name: file.name || 'pasted file' }));
    setUploading((current) => [...current, ...pending.map(({ key, name }) => ({ key, name }))]);
    for (const { file, key } of pending) {
      try {
        const uploaded = await upload(file);
        update((current) => ({ ...current, attachments: [...current.attachments, uploaded] }));
      } catch (error) {
        setUploadError(error);
      } finally {
        setUploading((current) => current.filter((entry) => entry.key !== key));
      }
    }
  };

  const onDrop = (event: DragEvent) => {
    if (event.dataTransfer.files.length > 0) {
      event.preventDefault();
      void attach([...event.dataTransfer.files]);
    }
  };
  const onPaste = (event: ClipboardEvent) => {
    if (event.clipboardData.files.length > 0) {
      event.preventDefault();
      void attach([...event.clipboardData.files]);
    }
  };

  return { uploading, uploadError, attach, onDrop, onPaste };
}
