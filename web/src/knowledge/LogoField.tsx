import { useId, useState } from 'react';
import { Button } from '../ui/Button';
import { ErrorNotice } from '../ui/ErrorNotice';
import { uploadImage } from './knowledge-api';

/** The help center's logo: an image uploaded as an attachment (PNG, JPEG, GIF or WebP), or none. */
export function LogoField({
  value,
  onChange,
  error,
}: {
  value: string | null;
  onChange: (id: string | null) => void;
  error: string | undefined;
}) {
  const id = useId();
  const [uploading, setUploading] = useState(false);
  const [uploadError, setUploadError] = useState<unknown>(null);
  const [fileName, setFileName] = useState<string | null>(null);
  const choose = async (file: File | undefined) => {
    if (!file) {
      return;
    }
    setUploading(true);
    setUploadError(null);
    try {
      const uploaded = await uploadImage(file);
      setFileName(uploaded.fileName);
      onChange(uploaded.id);
    } catch (failure) {
      setUploadError(failure);
    } finally {
      setUploading(false);
    }
  };
  const state = uploading ? 'Uploading…' : value ? (fileName ? `New logo: ${fileName}` : 'A logo is set') : 'No logo';
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium">
        Logo
      </label>
      <div className="flex flex-wrap items-center gap-2">
        <input
          id={id}
          type="file"
          accept="image/png,image/jpeg,image/gif,image/webp"
          aria-invalid={Boolean(error)}
          aria-describedby={`${id}-state${error ? ` ${id}-error` : ''}`}
          className="text-sm file:mr-2 file:rounded-md file:border file:border-zinc-300 file:bg-white file:px-3 file:py-1.5 dark:file:border-zinc-700 dark:file:bg-zinc-900 dark:file:text-zinc-100"
          onChange={(event) => void choose(event.target.files?.[0])}
        />
        {value ? (
          <Button variant="ghost" onClick={() => onChange(null)}>
            Remove logo
          </Button>
        ) : null}
      </div>
      <p id={`${id}-state`} className="text-xs text-zinc-500 dark:text-zinc-400">
        {state}. PNG, JPEG, GIF or WebP, up to 2 MB; shown in the header of the public site.
      </p>
      {error ? (
        <p id={`${id}-error`} className="text-xs text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
      <ErrorNotice error={uploadError} />
    </div>
  );
}
