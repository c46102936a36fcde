import { describe, expect, it } from 'vitest';
import { buildConversation, groupThreads, upsertComment } from './conversation';

const comment = (id: string, createdAt: string, parentCommentId: string | null = null) => ({ id, createdAt, parentCommentId });

describe('the conversation order', () => {
  it('groups replies under their thread, in time order, and keeps threads in the order listed', () => {
    const threads = groupThreads([
      comment('A', '2026-01-01T10:00:00.000Z'),
      comment('A2', '2026-01-01T10:30:00.000Z', 'A'),
      comment('A1', '2026-01-01T10:10:00.000Z', 'A'),
      comment('B', '2026-01-01T11:00:00.000Z'),
    ]);
    expect(threads.map((thread) => [thread.root.id, thread.replies.map((reply) => reply.id)])).toEqual([
      ['A', ['A1', 'A2']],
      ['B', []],
    ]);
  });

  it('shows a reply without its thread on its own, and a comment listed twice once', () => {
    const threads = groupThreads([comment('R', '2026-01-01T10:00:00.000Z', 'GONE'), comment('B', 'x'), comment('B', 'x')]);
    expect(threads.map((thread) => thread.root.id)).toEqual(['R', 'B']);
  });

  it('slots activities between threads by time, only when asked', () => {
    const comments = [comment('A', '2026-01-01T10:00:00.000Z'), comment('B', '2026-01-01T12:00:00.000Z')];
    const activities = [
      { id: 'X', createdAt: '2026-01-01T11:00:00.000Z' },
      { id: 'Y', createdAt: '2026-01-01T09:00:00.000Z' },
    ];
    expect(buildConversation(comments, activities).map((item) => item.key)).toEqual([
      'activity-Y',
      'comment-A',
      'activity-X',
      'comment-B',
    ]);
    expect(buildConversation(comments, null).map((item) => item.key)).toEqual(['comment-A', 'comment-B']);
  });
});

describe('a comment arriving (the send answer or a live event)', () => {
  const base = { deletedAt: null as string | null, emailDelivery: undefined as unknown, slackDelivery: undefined as unknown };
  it('is appended once, replaced when it changes, and keeps its delivery state', () => {
    const first = { ...comment('A', '1'), ...base, emailDelivery: { status: 'sent' }, slackDelivery: { status: 'posted' } };
    let list = upsertComment([first], { ...comment('B', '2'), ...base });
    expect(list?.map((entry) => entry.id)).toEqual(['A', 'B']);
    list = upsertComment(list, { ...comment('A', '1'), ...base, emailDelivery: undefined });
    expect(list?.map((entry) => entry.id)).toEqual(['A', 'B']);
    expect(list?.[0]?.emailDelivery).toEqual({ status: 'sent' });
    expect(list?.[0]?.slackDelivery).toEqual({ status: 'posted' });
  });
  it('leaves with its replies when deleted, and is not added before the list is loaded', () => {
    const list = [
      { ...comment('A', '1'), ...base },
      { ...comment('A1', '2', 'A'), ...base },
      { ...comment('B', '3'), ...base },
    ];
    expect(upsertComment(list, { ...comment('A', '1'), ...base, deletedAt: '4' })?.map((entry) => entry.id)).toEqual(['B']);
    expect(upsertComment(undefined, { ...comment('A', '1'), ...base })).toBeUndefined();
  });
});
