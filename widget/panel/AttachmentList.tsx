import { useEffect, useState } from 'preact/hooks';
import { fileSizeText } from './file-text';
import type { Attachment } from './messenger-client';

/** The images the server shows inline; every other file is offered as a download. */
const IMAGES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

export type LoadFile = (fileId: string) => Promise<Blob>;

/** A file's bytes as a `data:` address: the panel's page lets images come from itself and `data:` only, not `blob:`. */
const dataAddressOf = (blob: Blob) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(blob);
  });

/** An image as a small thumbnail, read with the visitor's token (an `<img>` could not send it). */
function Thumbnail(props: { attachment: Attachment; loadFile: LoadFile }) {
  const { attachment, loadFile } = props;
  const [url, setUrl] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let current = true;
    loadFile(attachment.id)
      .then(dataAddressOf)
      .then((address) => current && setUrl(address))
      .catch(() => current && setFailed(true));
    return () => {
      current = false;
    };
  }, [attachment.id, loadFile]);
  if (failed) {
    return <span class="attachment-status">{attachment.name} could not be shown.</span>;
  }
  return url ? (
    <img class="attachment-image" src={url} alt={attachment.name} />
  ) : (
    <span class="attachment-status">
      Loading {attachment.name}
      {'\u2026'}
    </span>
  );
}

/** Any other file: read with the visitor's token when asked for, then saved under its own name. */
function DownloadButton(props: { attachment: Attachment; loadFile: LoadFile }) {
  const { attachment, loadFile } = props;
  const [problem, setProblem] = useState(false);
  const download = () => {
    setProblem(false);
    loadFile(attachment.id)
      .then((blob) => {
        const url = URL.createObjectURL(blob);
        const link = document.createElement('a');
        link.href = url;
        link.download = attachment.name;
        document.body.append(link);
        link.click();
        link.remove();
        // Given time to start the download before the URL goes.
        setTimeout(() => URL.revokeObjectURL(url), 10_000);
      })
      .catch(() => setProblem(true));
  };
  return (
    <>
      <button type="button" class="link-button attachment-download" onClick={download}>
        Download {attachment.name} ({fileSizeText(attachment.size)})
      </button>
      {problem ? <span class="attachment-status"> The file could not be downloaded. Try again.</span> : null}
    </>
  );
}

/** The files of one message: images as thumbnails, other files as downloads. */
export function AttachmentList(props: { attachments: Attachment[] | undefined; loadFile: LoadFile }) {
  const attachments = props.attachments ?? [];
  if (attachments.length === 0) {
    return null;
  }
  return (
    <ul class="attachments" aria-label="Files">
      {attachments.map((attachment) => (
        <li key={attachment.id}>
          {IMAGES.has(attachment.contentType) ? (
            <Thumbnail attachment={attachment} loadFile={props.loadFile} />
          ) : (
            <DownloadButton attachment={attachment} loadFile={props.loadFile} />
          )}
        </li>
      ))}
    </ul>
  );
}
