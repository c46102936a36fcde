import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Building2, Mail, Phone } from 'lucide-react';
import { hasMailbox } from '../api/ticket-source';
import type { Ticket } from '../api/types';
import { Avatar } from '../ui/Avatar';
import { Badge } from '../ui/Badge';
import { ErrorNotice } from '../ui/ErrorNotice';
import { ChatPresenceLine } from './ChatPresenceLine';
import { SatisfactionRating } from './SatisfactionRating';
import { accountQuery, contactQuery, requestorTicketsQuery } from './ticket-queries';
import type { ChatVisitorView } from './use-chat-visitor';

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section aria-label={title} className="flex flex-col gap-2 border-b border-zinc-200 p-4 last:border-b-0 dark:border-zinc-800">
      <h2 className="text-xs font-semibold tracking-wide text-zinc-500 uppercase dark:text-zinc-400">{title}</h2>
      {children}
    </section>
  );
}

/** Who asked: their contact, their account and their other tickets; for a messenger chat, whether they are still there. */
export function RequestorPanel({ ticket, chatVisitor }: { ticket: Ticket; chatVisitor: ChatVisitorView | null }) {
  const contact = useQuery({ ...contactQuery(ticket.customerContactId ?? ''), enabled: ticket.customerContactId !== null });
  const accountId = ticket.accountId ?? contact.data?.accounts[0]?.id ?? null;
  const account = useQuery({ ...accountQuery(accountId ?? ''), enabled: accountId !== null });
  const others = useQuery(requestorTicketsQuery(ticket.requestorEmail));
  const name =
    [contact.data?.firstName ?? ticket.customerContactFirstName, contact.data?.lastName ?? ticket.customerContactLastName]
      .filter(Boolean)
      .join(' ') || (hasMailbox(ticket.requestorEmail) ? ticket.requestorEmail : 'Messenger visitor');
  const otherTickets = (others.data ?? []).filter((other) => other.id !== ticket.id);
  return (
    <aside aria-label="Requestor" className="text-sm">
      <Section title="Requestor">
        <div className="flex items-center gap-2">
          <Avatar name={name} url={contact.data?.avatarUrl} size={40} />
          <div className="min-w-0">
            <p className="truncate font-medium">{name}</p>
            {contact.data?.contactType ? <p className="text-xs text-zinc-500">{contact.data.contactType}</p> : null}
          </div>
        </div>
        {chatVisitor ? <ChatPresenceLine visitor={chatVisitor} /> : null}
        <p className="flex items-center gap-1.5 break-all text-zinc-700 dark:text-zinc-300">
          <Mail size={14} aria-hidden className="shrink-0" />
          {hasMailbox(ticket.requestorEmail) ? (
            <a href={`mailto:${ticket.requestorEmail}`} className="hover:underline">
              {ticket.requestorEmail}
            </a>
          ) : (
            <span className="text-zinc-500 dark:text-zinc-400">No email address left</span>
          )}
        </p>
        {contact.data?.phoneNumber ? (
          <p className="flex items-center gap-1.5 text-zinc-700 dark:text-zinc-300">
            <Phone size={14} aria-hidden className="shrink-0" />
            {contact.data.phoneNumber}
          </p>
        ) : null}
        <ErrorNotice error={contact.error} />
      </Section>
      <SatisfactionRating ticketId={ticket.id} />
      <Section title="Account">
        {accountId === null ? <p className="text-zinc-500 dark:text-zinc-400">No account.</p> : null}
        {account.data ? (
          <div className="flex flex-col gap-1">
            <p className="flex items-center gap-1.5 font-medium">
              <Building2 size={14} aria-hidden className="shrink-0" />
              {account.data.name}
            </p>
            <p className="text-zinc-600 dark:text-zinc-400">{account.data.primaryDomain}</p>
            <div className="flex flex-wrap gap-1">
              {account.data.status ? <Badge>{account.data.status}</Badge> : null}
              {account.data.health ? <Badge tone="green">{account.data.health}</Badge> : null}
              {account.data.classification ? <Badge tone="blue">{account.data.classification}</Badge> : null}
            </div>
          </div>
        ) : null}
        <ErrorNotice error={account.error} />
      </Section>
      <Section title="Other tickets">
        <ErrorNotice error={others.error} />
        {others.data && otherTickets.length === 0 ? <p className="text-zinc-500 dark:text-zinc-400">None.</p> : null}
        <ul className="flex flex-col gap-1">
          {otherTickets.map((other) => (
            <li key={other.id}>
              <Link
                to="/tickets/$ticketId"
                params={{ ticketId: other.id }}
                className="flex items-center gap-2 rounded px-1 py-1 hover:bg-zinc-100 dark:hover:bg-zinc-800"
              >
                <span className="shrink-0 font-mono text-xs text-zinc-500">{other.ticketIdentifier}</span>
                <span className="min-w-0 flex-1 truncate">{other.title}</span>
                <Badge tone={other.isClosed ? 'green' : 'neutral'}>{other.status}</Badge>
              </Link>
            </li>
          ))}
        </ul>
      </Section>
    </aside>
  );
}
