import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { InputField } from '../../ui/FormField';
import { uploadImage } from '../knowledge-api';
import { attachmentLimitsQuery, attachmentUrl } from './articles-api';

const IMAGE_TYPES = 'image/png,image/jpeg,image/gif,image/webp';

/** `bytes` in words: "25 MB", "300 KB". */
export function sizeInWords(bytes: number): string {
  if (bytes >= 1024 * 1024) {
    return `${Number((bytes / (1024 * 1024)).toFixed(1))} MB`;
  }
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/** Why a file cannot be uploaded, said before it is sent; null when it can. */
export function imageProblem(file: File, maxBytes: number | undefined): string | null {
  if (!IMAGE_TYPES.split(',').includes(file.type)) {
    return 'Choose a PNG, JPEG, GIF or WebP image.';
  }
  if (maxBytes !== undefined && file.size > maxBytes) {
    return `${file.name} is ${sizeInWords(file.size)}: images can be at most ${sizeInWords(maxBytes)} (${maxBytes} bytes).`;
  }
  return null;
}

/**
 * An image for the article: chosen, checked against the upload limit before anything is sent,
 * uploaded as an attachment, and inserted with the alt text readers who cannot see it hear.
 */
export function ImageDialog({
  open,
  onOpenChange,
  onInsert,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onInsert: (image: { src: string; alt: string }) => void;
}) {
  const limits = useQuery(attachmentLimitsQuery);
  const [file, setFile] = useState<File | null>(null);
  const [alt, setAlt] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const [uploading, setUploading] = useState(false);
  const close = (next: boolean) => {
    if (!next) {
      setFile(null);
      setAlt('');
      setProblem(null);
      setFailure(null);
    }
    onOpenChange(next);
  };
  const choose = (chosen: File | undefined) => {
    setFailure(null);
    setFile(chosen ?? null);
    setProblem(chosen ? imageProblem(chosen, limits.data?.maxBytes) : null);
  };
  const insert = async () => {
    if (!file || problem) {
      setProblem(problem ?? 'Choose an image first.');
      return;
    }
    setUploading(true);
    try {
      const uploaded = await uploadImage(file);
      onInsert({ src: attachmentUrl(uploaded.id), alt: alt.trim() });
      close(false);
    } catch (error) {
      setFailure(error);
    } finally {
      setUploading(false);
    }
  };
  const limit = limits.data ? `, up to ${sizeInWords(limits.data.maxBytes)}` : '';
  return (
    <Dialog open={open} onOpenChange={close} title="Insert image">
      <div className="flex flex-col gap-3 p-4">
        <InputField
          label="Image file"
          type="file"
          accept={IMAGE_TYPES}
          hint={`PNG, JPEG, GIF or WebP${limit}.`}
          error={problem ?? undefined}
          onChange={(event) => choose(event.target.files?.[0])}
        />
        <InputField
          label="Alt text"
          hint="What the image shows, for readers who cannot see it."
          value={alt}
          onChange={(event) => setAlt(event.target.value)}
        />
        <ErrorNotice error={failure} />
        <div className="flex justify-end gap-2">
          <Button onClick={() => close(false)}>Cancel</Button>
          <Button variant="primary" disabled={uploading} onClick={() => void insert()}>
            {uploading ? 'Uploading…' : 'Insert image'}
          </Button>
        </div>
      </div>
    </Dialog>
  );
}
