import { Badge, type BadgeTone } from '../../ui/Badge';
import type { ImportChange } from './configuration-transfer';

const ACTION_TONE: Record<ImportChange['action'], BadgeTone> = { create: 'green', update: 'blue', delete: 'red' };

/** What an import would do, one row per object, in the order the API would apply them. */
export function ImportChanges({ changes }: { changes: readonly ImportChange[] }) {
  return (
    <div className="overflow-x-auto rounded-md border border-zinc-200 dark:border-zinc-800">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Changes the file would make</caption>
        <thead className="bg-zinc-50 text-xs text-zinc-600 uppercase dark:bg-zinc-900 dark:text-zinc-400">
          <tr>
            <th scope="col" className="px-3 py-2">
              Action
            </th>
            <th scope="col" className="px-3 py-2">
              Kind
            </th>
            <th scope="col" className="px-3 py-2">
              Name
            </th>
            <th scope="col" className="px-3 py-2">
              Fields
            </th>
          </tr>
        </thead>
        <tbody>
          {changes.map((change) => (
            <tr key={`${change.kind} ${change.name} ${change.action}`} className="border-t border-zinc-200 dark:border-zinc-800">
              <td className="px-3 py-2">
                <Badge tone={ACTION_TONE[change.action]}>{change.action}</Badge>
              </td>
              <td className="px-3 py-2">{change.kind}</td>
              <td className="px-3 py-2 break-all">{change.name.replaceAll('\u0000', ' / ')}</td>
              <td className="px-3 py-2 text-zinc-600 dark:text-zinc-400">{change.fields.join(', ') || '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
