import { Type } from '@sinclair/typebox';
import { publicBaseUrl } from '../../../config.js';
import { publicArticleUrl } from '../../../help-center/articles/article.links.js';
import { searchArticles } from '../../../help-center/articles/article.service.js';
import { collectionSubtreeIds } from '../../../help-center/collections/collection.service.js';
import { publicCollectionIds } from '../../../help-center/collections/collection.visibility.js';
import { requireHelpCenter } from '../../../help-center/help-centers/help-center.service.js';
import { helpCenterOfThread } from '../../chats/chat.service.js';
import type { RuntimeTool } from '../runtime-tool.js';
import { type BuiltInCall, makeBuiltInTool } from './built-in-tool.js';
import { highlightText } from './ticket-summary.js';

interface KnowledgeBaseConfiguration {
  max_results: number;
  include_metadata: boolean;
  help_center_id?: string | null;
  collection_ids?: string[];
}

const SearchArguments = Type.Object(
  {
    query: Type.String({
      minLength: 1,
      maxLength: 200,
      description:
        'Words to find in article titles and bodies (all must match; "a phrase" in double quotes, refund* for a prefix, a OR b)',
    }),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, description: 'Most articles to return' })),
  },
  { additionalProperties: false },
);

/** Search reads this many hits when it must keep only some collections' articles, then keeps the best. */
const FILTERED_SEARCH_DEPTH = 50;

async function searchKnowledgeBase(
  args: { query: string; limit?: number },
  { context, principal, customer, configuration }: BuiltInCall<KnowledgeBaseConfiguration>,
) {
  const { db, config } = context.deps;
  // A messenger visitor reads the help center they wrote from: the agent searches and links that one.
  const visitorHelpCenterId =
    context.principal.type === 'visitor' && context.threadId ? await helpCenterOfThread(db, context.threadId) : null;
  const helpCenterId = visitorHelpCenterId ?? configuration.help_center_id ?? null;
  const limit = Math.min(args.limit ?? configuration.max_results, configuration.max_results);
  const collections = configuration.collection_ids?.length
    ? await collectionSubtreeIds(db, principal.organizationId, configuration.collection_ids)
    : null;
  const filtered = collections !== null || customer !== null;
  const hits = await searchArticles(db, principal, {
    q: args.query,
    helpCenterId: helpCenterId ?? undefined,
    limit: filtered ? FILTERED_SEARCH_DEPTH : limit,
  });
  // A customer's run cites only what the customer could read: nothing of protected collections or help centers.
  const readable = customer
    ? await publicCollectionIds(
        db,
        principal.organizationId,
        hits.flatMap((hit) => hit.collections),
      )
    : null;
  const kept = hits
    .filter((hit) => !collections || hit.collections.some((id) => collections.has(id)))
    .filter((hit) => !readable || hit.collections.some((id) => readable.has(id)))
    .slice(0, limit);
  // An article may sit in several help centers: its link is in the one searched, else its first.
  const helpCenterOf = (hit: (typeof kept)[number]) => helpCenterId ?? hit.helpCenters[0];
  const helpCenterIds = [...new Set(kept.flatMap((hit) => helpCenterOf(hit) ?? []))];
  const slugs = new Map(
    await Promise.all(
      helpCenterIds.map(async (id) => [id, (await requireHelpCenter(db, principal.organizationId, id)).slug] as const),
    ),
  );
  const results = kept.map((hit) => {
    const helpCenterId = helpCenterOf(hit);
    const helpCenterSlug = helpCenterId ? slugs.get(helpCenterId) : undefined;
    return {
      article_id: hit._id,
      title: hit.title,
      description: hit.description,
      url: helpCenterSlug ? publicArticleUrl(publicBaseUrl(config, 'helpCenter'), helpCenterSlug, hit.slug) : null,
      excerpt: highlightText(hit.excerpt),
      ...(configuration.include_metadata
        ? { collection_ids: hit.collections, help_center_ids: hit.helpCenters, published_at: hit.publishedAt }
        : {}),
    };
  });
  return {
    query: args.query,
    results,
    ...(results.length === 0 ? { note: 'No published article matches; try other words before answering without one.' } : {}),
  };
}

export function searchKnowledgeBaseTool(toolName: string, configuration: Record<string, unknown>): RuntimeTool {
  return makeBuiltInTool(
    toolName,
    {
      description:
        "Searches the organization's published help-center articles and returns the best matches, each with its title, " +
        'a passage that matched, and the link to cite. Search before answering a product or policy question, and cite the ' +
        'link of the article the answer comes from.',
      arguments: SearchArguments,
      run: searchKnowledgeBase,
    },
    configuration,
  );
}
