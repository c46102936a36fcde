import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { PROJECT_ROOT } from '../../project-root.js';

/** Where `npm run build:widget` writes the messenger's loader and panel (`scripts/widget-bundles.ts`). */
export const WIDGET_BUILD_DIR = fileURLToPath(new URL('dist/widget/', PROJECT_ROOT));

/** A built file of the messenger as it is served: its bytes, gzipped once, and its ETag. */
export interface WidgetAsset {
  contentType: string;
  body: Buffer;
  gzipped: Buffer;
  /** A strong ETag: the first 16 hex digits of the content's SHA-256, quoted. */
  etag: string;
}

/** The files the build writes, by name, and their types. */
const WIDGET_FILES = {
  'loader.js': 'text/javascript; charset=utf-8',
  'panel.js': 'text/javascript; charset=utf-8',
  'panel.css': 'text/css; charset=utf-8',
} as const;

export type WidgetFile = keyof typeof WIDGET_FILES;

/**
 * Reads the built messenger once, at start-up: three small files (about 40 kB), gzipped here once
 * rather than on every request. Null when the build is missing (`npm install` builds it).
 */
export function readWidgetAssets(dir = WIDGET_BUILD_DIR): Map<WidgetFile, WidgetAsset> | null {
  const files = Object.keys(WIDGET_FILES) as WidgetFile[];
  if (!files.every((file) => existsSync(`${dir}/${file}`))) {
    return null;
  }
  return new Map(
    files.map((file) => {
      const body = readFileSync(`${dir}/${file}`);
      const hash = createHash('sha256').update(body).digest('hex').slice(0, 16);
      return [file, { contentType: WIDGET_FILES[file], body, gzipped: gzipSync(body, { level: 9 }), etag: `"${hash}"` }];
    }),
  );
}

/** Whether an `If-None-Match` header names this ETag (or `*`), weak or strong. */
export function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) {
    return false;
  }
  return ifNoneMatch.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || trimmed.replace(/^W\//, '') === etag;
  });
}

/** Whether an `Accept-Encoding` header takes gzip (not refused with `q=0`). */
export function acceptsGzip(acceptEncoding: string | undefined): boolean {
  return (acceptEncoding ?? '').split(',').some((part) => {
    const [coding = '', ...parameters] = part.trim().toLowerCase().split(';');
    const quality = parameters.map((parameter) => /^\s*q=([\d.]+)\s*$/.exec(parameter)?.[1]).find(Boolean);
    return (coding === 'gzip' || coding === 'x-gzip') && (quality === undefined || Number(quality) > 0);
  });
}
