import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { FolderTree, Lock, Pencil, Plus } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../ui/Button';
import { DeleteAction } from '../ui/DeleteAction';
import { ErrorNotice } from '../ui/ErrorNotice';
import { SortableTree } from '../ui/sortable/SortableTree';
import type { TreeMove } from '../ui/sortable/tree-moves';
import { CollectionDialog } from './CollectionDialog';
import { CollectionIcon } from './collection-icons';
import {
  type Collection,
  collectionsKey,
  collectionsQuery,
  createCollection,
  deleteCollection,
  updateCollection,
} from './knowledge-api';

/**
 * The collections tree of a help center: each move (dragged, or by the buttons) is one request
 * with the collection's new parent and place; the tree is read again after it, refused or not.
 */
export function CollectionsPanel({ helpCenterId, canEdit }: { helpCenterId: string; canEdit: boolean }) {
  const queryClient = useQueryClient();
  const collections = useQuery(collectionsQuery(helpCenterId));
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<Collection | null>(null);
  const [moved, setMoved] = useState('');
  const refresh = () => queryClient.invalidateQueries({ queryKey: collectionsKey(helpCenterId) });
  const nameOf = (id: string | null) => collections.data?.find((collection) => collection._id === id)?.name;
  const move = useMutation({
    mutationFn: ({ id, parentId, order }: TreeMove) => updateCollection(id, { parentId, order }),
    onMutate: () => setMoved(''),
    onSuccess: (collection) => {
      const where = collection.parentId ? `into ${nameOf(collection.parentId)}` : 'to the top level';
      setMoved(`Moved ${collection.name} ${where}, position ${collection.order}.`);
    },
    onSettled: refresh,
  });
  const nodes = (collections.data ?? []).map((collection) => ({
    ...collection,
    id: collection._id,
    parentId: collection.parentId,
  }));
  return (
    <section aria-labelledby="collections-heading" className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="collections-heading" className="text-base font-semibold">
          Collections
        </h2>
        {canEdit ? (
          <Button variant="primary" onClick={() => setCreating(true)}>
            <Plus size={16} aria-hidden />
            New collection
          </Button>
        ) : null}
      </div>
      {canEdit && nodes.length > 1 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          Drag a collection by its handle to change its place; drag it right to put it inside the one above, left to take it out.
          The arrow buttons do the same from the keyboard.
        </p>
      ) : null}
      <ErrorNotice error={collections.error ?? move.error} />
      <output aria-live="polite" className="sr-only">
        {moved}
      </output>
      {collections.isPending ? <p className="text-sm text-zinc-500 dark:text-zinc-400">Loading collections…</p> : null}
      {collections.data?.length === 0 ? <NoCollections canEdit={canEdit} /> : null}
      {nodes.length > 0 ? (
        <SortableTree
          nodes={nodes}
          label="Collections"
          busy={move.isPending}
          readOnly={!canEdit}
          onMove={(change) => move.mutate(change)}
        >
          {(collection) => (
            <CollectionRow collection={collection} canEdit={canEdit} onEdit={() => setEditing(collection)} onDeleted={refresh} />
          )}
        </SortableTree>
      ) : null}
      <CollectionDialog
        open={creating}
        onOpenChange={setCreating}
        save={async (body) => {
          await createCollection({ ...body, helpCenterId, description: body.description ?? undefined });
          await refresh();
        }}
      />
      <CollectionDialog
        collection={editing ?? undefined}
        parentName={nameOf(editing?.parentId ?? null)}
        open={editing !== null}
        onOpenChange={(open) => setEditing(open ? editing : null)}
        save={async (body) => {
          if (editing) {
            await updateCollection(editing._id, body);
            await refresh();
          }
        }}
      />
    </section>
  );
}

function CollectionRow({
  collection,
  canEdit,
  onEdit,
  onDeleted,
}: {
  collection: Collection;
  canEdit: boolean;
  onEdit: () => void;
  onDeleted: () => Promise<unknown>;
}) {
  const articles = collection.articles.length;
  return (
    <div className="flex flex-wrap items-start gap-x-3 gap-y-1">
      <div className="flex min-w-0 flex-1 flex-col">
        <span className="flex items-center gap-1.5 font-medium">
          <CollectionIcon icon={collection.icon} />
          <span className="truncate">{collection.name}</span>
          {collection.isProtected ? (
            <span title="Only for signed-in customers" className="flex items-center">
              <Lock size={14} aria-hidden />
              <span className="sr-only">(only for signed-in customers)</span>
            </span>
          ) : null}
        </span>
        {collection.description ? <span className="text-zinc-600 dark:text-zinc-400">{collection.description}</span> : null}
        <span className="text-xs text-zinc-500 dark:text-zinc-400">
          {articles} article{articles === 1 ? '' : 's'}
        </span>
      </div>
      {canEdit ? (
        <div className="flex items-start gap-1">
          <Button
            variant="ghost"
            aria-label={`Edit ${collection.name}`}
            title={`Edit ${collection.name}`}
            className="px-2"
            onClick={onEdit}
          >
            <Pencil size={16} aria-hidden />
          </Button>
          <DeleteAction
            label=""
            accessibleName={`Delete ${collection.name}`}
            variant="ghost"
            title={`Delete the collection ${collection.name}?`}
            description="Only an empty collection can go: move its sub-collections and articles elsewhere first. This cannot be undone."
            confirmLabel="Delete collection"
            remove={() => deleteCollection(collection._id)}
            onDeleted={onDeleted}
          />
        </div>
      ) : null}
    </div>
  );
}

function NoCollections({ canEdit }: { canEdit: boolean }) {
  return (
    <div className="mx-auto flex max-w-md flex-col items-center gap-2 py-8 text-center">
      <FolderTree size={28} aria-hidden className="text-zinc-400" />
      <h3 className="text-base font-semibold">No collections yet</h3>
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        {canEdit
          ? 'Collections are the sections of the help center. Add one with “New collection”, then drag others inside it to nest them.'
          : 'An admin arranges the help center in collections; articles are filed in them.'}
      </p>
    </div>
  );
}
