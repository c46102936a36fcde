import type { FastifyReply, FastifyRequest } from 'fastify';
import { ULID_PATTERN } from '../../lib/ids.js';
import { readAttachmentFile } from '../../platform/attachments/attachment.service.js';
import { isImageOfVisibleArticle } from '../articles/published-article.service.js';
import { visibleCollectionTree } from '../collections/published-collection.service.js';
import { type SiteDeps, sendNotFound, siteContextOf } from './site.routes.js';
import { mayRead } from './site.service.js';

/** What an article image may be: pictures only, never a page or a script served from the site's origin. */
const IMAGE_CONTENT_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];
const ULID = new RegExp(ULID_PATTERN);

/**
 * An uploaded image of an article the reader may see (published, live, in a collection they may
 * read, of this help center); anything else is the site's 404, so a draft's image stays private.
 */
export async function sendArticleImage(deps: SiteDeps, request: FastifyRequest, reply: FastifyReply) {
  const context = await siteContextOf(deps, request, reply);
  if (!context) {
    return reply;
  }
  const { helpCenter, viewer } = context;
  const attachmentId = (request.params as { attachmentId: string }).attachmentId;
  if (!mayRead(helpCenter, viewer) || !ULID.test(attachmentId)) {
    return sendNotFound(reply, context);
  }
  const tree = await visibleCollectionTree(deps.db, helpCenter.organizationId, helpCenter.id, {
    includeProtected: viewer.contact !== null,
  });
  const collectionIds = tree.listingOrder().map((collection) => collection.id);
  const shown = await isImageOfVisibleArticle(deps.db, helpCenter.organizationId, attachmentId, collectionIds);
  const file = shown ? await readAttachmentFile(deps, helpCenter.organizationId, attachmentId) : null;
  if (!file || !IMAGE_CONTENT_TYPES.includes(file.contentType)) {
    return sendNotFound(reply, context);
  }
  const etag = `"${file.sha256}"`;
  if (request.headers['if-none-match'] === etag) {
    return reply.code(304).header('etag', etag).send();
  }
  return reply
    .headers({
      'content-type': file.contentType,
      etag,
      // Short and revalidated: unpublishing withdraws the image within minutes.
      'cache-control': viewer.contact === null ? 'public, max-age=300' : 'private, max-age=300',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
    })
    .send(file.body);
}
