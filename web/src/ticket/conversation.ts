/**
 * The order of the conversation: threads (a top-level comment and its replies) oldest first, as
 * the API lists them, with the timeline's entries placed between them by time when shown.
 */

export interface ThreadComment {
  id: string;
  parentCommentId: string | null;
  createdAt: string;
}

export interface TimedEntry {
  id: string;
  createdAt: string;
}

export type ConversationItem<Comment, Activity> =
  | { kind: 'thread'; key: string; at: string; root: Comment; replies: Comment[] }
  | { kind: 'activity'; key: string; at: string; activity: Activity };

/**
 * Groups comments into threads. A reply whose top-level comment is not in the list (on a later
 * page, or arrived live first) is shown as a thread of its own rather than lost.
 */
export function groupThreads<Comment extends ThreadComment>(
  comments: readonly Comment[],
): { root: Comment; replies: Comment[] }[] {
  const threads: { root: Comment; replies: Comment[] }[] = [];
  const byRoot = new Map<string, { root: Comment; replies: Comment[] }>();
  const seen = new Set<string>();
  for (const comment of comments) {
    if (seen.has(comment.id)) {
      continue;
    }
    seen.add(comment.id);
    const parent = comment.parentCommentId ? byRoot.get(comment.parentCommentId) : undefined;
    if (parent) {
      parent.replies.push(comment);
      continue;
    }
    const thread = { root: comment, replies: [] };
    threads.push(thread);
    byRoot.set(comment.id, thread);
  }
  for (const thread of threads) {
    thread.replies.sort((a, b) => compareTime(a, b));
  }
  return threads;
}

function compareTime(a: TimedEntry, b: TimedEntry): number {
  return a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Threads and, when given, activities merged by time; a thread sorts by its top-level comment. */
export function buildConversation<Comment extends ThreadComment, Activity extends TimedEntry>(
  comments: readonly Comment[],
  activities: readonly Activity[] | null,
): ConversationItem<Comment, Activity>[] {
  const items: ConversationItem<Comment, Activity>[] = groupThreads(comments).map((thread) => ({
    kind: 'thread',
    key: `comment-${thread.root.id}`,
    at: thread.root.createdAt,
    root: thread.root,
    replies: thread.replies,
  }));
  for (const activity of activities ?? []) {
    items.push({ kind: 'activity', key: `activity-${activity.id}`, at: activity.createdAt, activity });
  }
  // Threads keep the API's order among themselves; a stable sort by time only slots activities in.
  return items.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
}

/** Adds or replaces a comment in the ticket's conversation (the API's answer, or a live event), without a refetch. */
export function upsertComment<
  Comment extends ThreadComment & { deletedAt: string | null; emailDelivery?: unknown; slackDelivery?: unknown },
>(comments: Comment[] | undefined, comment: Comment): Comment[] | undefined {
  if (!comments) {
    return comments;
  }
  if (comment.deletedAt) {
    return comments.filter((existing) => existing.id !== comment.id && existing.parentCommentId !== comment.id);
  }
  const index = comments.findIndex((existing) => existing.id === comment.id);
  if (index < 0) {
    return [...comments, comment];
  }
  const next = comments.slice();
  // A live event carries no delivery state; keep the one the author's answer had.
  next[index] = {
    ...comment,
    emailDelivery: comment.emailDelivery ?? comments[index]?.emailDelivery,
    slackDelivery: comment.slackDelivery ?? comments[index]?.slackDelivery,
  };
  return next;
}
