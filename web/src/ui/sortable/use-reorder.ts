import { arrayMove } from '@dnd-kit/sortable';
import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import type { SortableEntry } from './SortableList';

/**
 * Moves an item of a list the API orders as a whole: the list is shown in its new order at once
 * (`renumber` gives each item its new place), the whole order is sent in one request (`send`),
 * and a refused order is put back, the API's message in `error`, before the list is read again.
 */
export function useReorder<Entry extends SortableEntry>({
  queryKey,
  items,
  send,
  renumber,
  onMoved,
}: {
  queryKey: QueryKey;
  items: Entry[];
  send: (ids: string[]) => Promise<Entry[]>;
  renumber: (item: Entry, position: number) => Entry;
  onMoved: (message: string) => void;
}) {
  const queryClient = useQueryClient();
  const move = useMutation({
    mutationFn: ({ order }: { order: Entry[]; moved: Entry; to: number }) => send(order.map((item) => item.id)),
    onMutate: async ({ order }) => {
      await queryClient.cancelQueries({ queryKey });
      const previous = queryClient.getQueryData(queryKey);
      queryClient.setQueryData(queryKey, order.map(renumber));
      return { previous };
    },
    onError: (_error, _move, context) => {
      if (context?.previous) {
        queryClient.setQueryData(queryKey, context.previous);
      }
    },
    onSuccess: (saved, { moved, to }) => {
      queryClient.setQueryData(queryKey, saved);
      onMoved(`Moved ${moved.name} to position ${to + 1}.`);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey }),
  });
  /** Sends the order with the item at `from` moved to `to`. */
  const moveItem = (from: number, to: number) => {
    const moved = items[from];
    if (moved && from !== to && to >= 0 && to < items.length) {
      move.mutate({ order: arrayMove(items, from, to), moved, to });
    }
  };
  return { moveItem, busy: move.isPending, error: move.error };
}
