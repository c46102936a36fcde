import { useQuery } from '@tanstack/react-query';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { type MailboxDnsSetup, mailboxDnsQuery } from './mailbox-queries';

const PURPOSES: Record<MailboxDnsSetup['records'][number]['purpose'], string> = {
  mx: 'Receiving (MX)',
  spf: 'Sending (SPF)',
  dkim: 'Signing (DKIM)',
  verification: 'Verification',
};

/** The DNS records the address needs with this instance, as the API gives them: the page invents none. */
export function DnsSetupPanel({ mailboxId, verified }: { mailboxId: string; verified: boolean }) {
  const dns = useQuery(mailboxDnsQuery(mailboxId, verified));
  return (
    <section aria-labelledby="dns-title" className="flex flex-col gap-3">
      <div>
        <h2 id="dns-title" className="text-base font-semibold">
          DNS set-up
        </h2>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          Publish these records at your DNS provider
          {dns.data ? ` for ${dns.data.domain}` : ''}. Changes can take a while to be seen everywhere.
        </p>
      </div>
      <ErrorNotice error={dns.error} />
      {dns.isPending ? <p className="text-sm text-zinc-500 dark:text-zinc-400">Loading the records…</p> : null}
      {dns.data ? (
        <ul aria-label="DNS records" className="flex flex-col gap-2">
          {dns.data.records.map((record) => (
            <li
              key={`${record.purpose}:${record.name}`}
              className="rounded-md border border-zinc-200 p-3 text-sm dark:border-zinc-800"
            >
              <h3 className="font-medium">{PURPOSES[record.purpose]}</h3>
              <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5">
                <dt className="text-zinc-500 dark:text-zinc-400">Type</dt>
                <dd>{record.type}</dd>
                <dt className="text-zinc-500 dark:text-zinc-400">Name</dt>
                <dd className="font-mono text-xs break-all">{record.name}</dd>
                <dt className="text-zinc-500 dark:text-zinc-400">Value</dt>
                <dd className="font-mono text-xs break-all">{record.value}</dd>
                {record.priority === null ? null : (
                  <>
                    <dt className="text-zinc-500 dark:text-zinc-400">Priority</dt>
                    <dd>{record.priority}</dd>
                  </>
                )}
              </dl>
              <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">{record.description}</p>
            </li>
          ))}
        </ul>
      ) : null}
      {dns.data && dns.data.notes.length > 0 ? (
        <ul aria-label="Notes on the DNS set-up" className="list-disc pl-5 text-sm text-zinc-700 dark:text-zinc-300">
          {dns.data.notes.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
