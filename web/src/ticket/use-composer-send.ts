import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { api, unwrap } from '../api/client';
import type { CommentCreate, Macro, Ticket, TicketComment } from '../api/types';
import { markdownToSafeHtml } from '../ui/Markdown';
import { upsertComment } from './conversation';
import type { Draft } from './draft-storage';
import { mentionedUserIds } from './mentions';
import { commentsQuery, emailsQuery, ticketQuery } from './ticket-queries';

/** What the API takes for the draft: markdown rendered to HTML (the API sanitises it again), mentions, files, and the draft's key. */
function commentBody(draft: Draft): CommentCreate {
  const note = draft.mode === 'note';
  const mentions = note ? mentionedUserIds(draft.text, draft.mentions) : [];
  return {
    contentHtml: markdownToSafeHtml(draft.text),
    commentVisibility: note ? 'private' : 'public',
    commentType: note ? 'note' : 'comment',
    shouldSendEmail: !note,
    ...(draft.attachments.length > 0 ? { attachmentIds: draft.attachments.map((file) => file.id) } : {}),
    ...(mentions.length > 0 ? { metadata: { mentions } } : {}),
    deDuplicationKey: draft.deDuplicationKey,
  };
}

/**
 * Sending the draft as a comment (once, however often it is asked) and applying a macro on the
 * server; either way the new comment joins the conversation. A sent draft gives way to a new one.
 */
export function useComposerSend({
  ticket,
  ticketKey,
  draft,
  reset,
  uploading,
  onSent,
}: {
  ticket: Ticket;
  ticketKey: string;
  draft: Draft;
  reset: (mode: Draft['mode']) => void;
  /** Files still uploading: the draft waits for them. */
  uploading: number;
  onSent: () => void;
}) {
  const queryClient = useQueryClient();
  const sending = useRef(false);

  const addComment = (comment: TicketComment) => {
    queryClient.setQueryData(commentsQuery(ticketKey).queryKey, (list) => upsertComment(list, comment));
    void queryClient.invalidateQueries({ queryKey: emailsQuery(ticketKey).queryKey });
  };

  const send = useMutation({
    mutationFn: async (body: CommentCreate) =>
      (await unwrap(api.POST('/v1/tickets/{id}/comment', { params: { path: { id: ticket.id } }, body }))).data,
    onSuccess: (comment) => {
      addComment(comment);
      reset(draft.mode);
      onSent();
    },
    onSettled: () => {
      sending.current = false;
    },
  });

  const applyMacro = useMutation({
    mutationFn: async (macro: Macro) =>
      (
        await unwrap(
          api.POST('/v1/tickets/{id}/macros/{macroId}/apply', {
            params: { path: { id: ticket.id, macroId: macro.id } },
            body: { deDuplicationKey: crypto.randomUUID() },
          }),
        )
      ).data,
    onSuccess: ({ comment, ticket: changed }) => {
      addComment(comment);
      queryClient.setQueryData(ticketQuery(ticketKey).queryKey, changed);
    },
  });

  const submit = () => {
    // A second click lands before React re-renders the disabled button; the same draft key would
    // make the API answer with the first comment anyway, but no second request is needed.
    if (sending.current || draft.text.trim() === '' || uploading > 0) {
      return;
    }
    sending.current = true;
    send.mutate(commentBody(draft));
  };

  return { send, applyMacro, submit };
}
