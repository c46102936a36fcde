import type { Readable } from 'node:stream';

/** One uploaded file as a route read it: the client's name and type, and the bytes still arriving. */
export interface UploadInput {
  fileName: string;
  contentType: string;
  stream: Readable;
  /** True once the stream was cut at the upload limit. */
  truncated(): boolean;
}
