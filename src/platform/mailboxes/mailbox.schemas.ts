import { type Static, Type } from '@sinclair/typebox';
import { CursorSchema } from '../../http/pagination.js';
import { Nullable, StringEnum, TimestampSchema, UlidSchema } from '../../http/shared-schemas.js';
import { ListPageNumberSchema } from '../platform.pagination.js';

const AddressSchema = Type.String({
  format: 'email',
  maxLength: 254,
  description:
    'The support address, e.g. support@acme.test; stored lower-case. One mailbox per address in an organization; ' +
    'across organizations the address goes to the first that verifies it',
});
const DisplayNameSchema = Type.String({ minLength: 1, maxLength: 200, description: 'The name shown beside the address' });
const DeliverySchema = StringEnum(['smtp', 'imap'] as const, {
  description: 'smtp: mail reaches the built-in SMTP receiver (SMTP_INBOUND_PORT); imap: it is fetched from an IMAP server',
});
const HostSchema = Type.String({
  minLength: 1,
  maxLength: 253,
  pattern: '^[A-Za-z0-9]([A-Za-z0-9.:-]*[A-Za-z0-9])?$|^\\[[0-9A-Fa-f:.]+\\]$',
  description: 'Host name or IP address of the IMAP server',
});
const PortSchema = Type.Integer({ minimum: 1, maximum: 65535 });
const FolderSchema = Type.String({ minLength: 1, maxLength: 200, pattern: '^[^\\x00-\\x1f\\x7f]+$' });

const imapFields = {
  host: HostSchema,
  port: Type.Optional({ ...PortSchema, description: 'Default 993 with tls, else 143' }),
  tls: Type.Optional(
    Type.Boolean({
      description:
        'true (the default): TLS from the start (IMAPS, port 993); false: STARTTLS is required, except for hosts in OUTBOUND_ALLOWED_HOSTS',
    }),
  ),
  username: Type.String({ minLength: 1, maxLength: 320 }),
  password: Type.String({ minLength: 1, maxLength: 1000, description: 'Stored encrypted with SECRET_KEY; never returned' }),
  folder: Type.Optional({ ...FolderSchema, description: 'The folder polled for new messages; default INBOX' }),
  processedFolder: Type.Optional(
    Nullable({
      ...FolderSchema,
      description: 'Where taken messages are moved (created if missing); null or absent: they are marked seen where they are',
    }),
  ),
};

export const CreateImapSettingsSchema = Type.Object(imapFields, { additionalProperties: false });

export const UpdateImapSettingsSchema = Type.Object(
  {
    ...imapFields,
    host: Type.Optional(HostSchema),
    username: Type.Optional(imapFields.username),
    password: Type.Optional(imapFields.password),
  },
  {
    additionalProperties: false,
    description: 'The fields sent replace the stored ones; a mailbox that becomes imap needs host, username and password',
  },
);

export const CreateMailboxSchema = Type.Object(
  {
    address: AddressSchema,
    teamId: { ...UlidSchema, description: 'Team of the organization that new tickets from this address go to' },
    displayName: DisplayNameSchema,
    delivery: DeliverySchema,
    isDefault: Type.Optional(
      Type.Boolean({ description: "The organization's default mailbox; making one default unsets the previous one" }),
    ),
    imap: Type.Optional(CreateImapSettingsSchema),
  },
  { additionalProperties: false },
);

export const UpdateMailboxSchema = Type.Object(
  {
    address: Type.Optional(AddressSchema),
    teamId: Type.Optional(UlidSchema),
    displayName: Type.Optional(DisplayNameSchema),
    delivery: Type.Optional(DeliverySchema),
    isDefault: Type.Optional(
      Type.Boolean({ description: 'true makes it the default (unsetting the previous one); false leaves none' }),
    ),
    imap: Type.Optional(UpdateImapSettingsSchema),
  },
  { additionalProperties: false },
);

export const ImapSettingsSchema = Type.Object(
  {
    host: Type.String(),
    port: Type.Integer(),
    tls: Type.Boolean(),
    username: Type.String(),
    folder: Type.String(),
    processedFolder: Nullable(Type.String()),
    lastPolledAt: Nullable(TimestampSchema),
    nextPollAt: Nullable(TimestampSchema),
    lastError: Nullable(Type.String({ description: 'Why the last poll failed; null once a poll succeeds' })),
  },
  { additionalProperties: false, description: 'The IMAP settings and the state of polling; the password is never shown' },
);

export const MailboxVerificationSchema = Type.Object(
  {
    status: StringEnum(['verified', 'unverified'] as const, {
      description: 'unverified: the mailbox neither receives nor sends, and mail from its address is not taken for a loop',
    }),
    method: Nullable(
      StringEnum(['link', 'dns', 'existing'] as const, {
        description:
          'link: the emailed link was confirmed; dns: the domain TXT record was found; existing: the mailbox predates verification',
      }),
    ),
    verifiedAt: Nullable(TimestampSchema),
    linkSentAt: Nullable({ ...TimestampSchema, description: 'When the latest link was emailed (unverified mailboxes)' }),
    linkExpiresAt: Nullable({ ...TimestampSchema, description: 'Until when that link works, once' }),
    dnsRecord: Nullable(
      Type.Object(
        {
          name: Type.String({ description: '_switchboard.<domain of the address>' }),
          type: Type.Literal('TXT'),
          value: Type.String({ description: "switchboard-verification=<the organization's token for the domain>" }),
        },
        {
          additionalProperties: false,
          description:
            "The record that verifies the organization's mailboxes on this domain (unverified mailboxes); then POST .../verification/dns",
        },
      ),
    ),
  },
  { additionalProperties: false, description: "Whether the address is proved to be the organization's, and how to prove it" },
);

export const MailboxSchema = Type.Object(
  {
    id: UlidSchema,
    address: Type.String(),
    teamId: UlidSchema,
    displayName: Type.String(),
    delivery: DeliverySchema,
    isDefault: Type.Boolean(),
    imap: Nullable(ImapSettingsSchema),
    verification: MailboxVerificationSchema,
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
  },
  { additionalProperties: false },
);

export const MailboxParamsSchema = Type.Object({ id: UlidSchema }, { additionalProperties: false });

export const ListMailboxesQuerySchema = Type.Object(
  {
    page: Type.Optional(ListPageNumberSchema()),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
    cursor: Type.Optional(CursorSchema),
  },
  { additionalProperties: false },
);

export type CreateMailbox = Static<typeof CreateMailboxSchema>;
export type UpdateMailbox = Static<typeof UpdateMailboxSchema>;
export type ListMailboxesQuery = Static<typeof ListMailboxesQuerySchema>;

/** The form the verification page posts (application/x-www-form-urlencoded). */
export const ConfirmVerificationBodySchema = Type.Object(
  { token: Type.String({ maxLength: 200, description: 'The token of the emailed link' }) },
  { additionalProperties: false },
);

/** The link's query; other parameters (a mail client's link tracking) are ignored, so the link still opens. */
export const VerificationPageQuerySchema = Type.Object(
  { token: Type.Optional(Type.String({ maxLength: 200, description: 'The token of the emailed link' })) },
  { additionalProperties: true },
);

export const VerificationPageSchema = Type.String({
  description:
    'An HTML page for the person who opened the link: what confirming does and for whom, or why the link cannot be used',
});

export const SendMailboxTestEmailSchema = Type.Object(
  {
    to: Type.Optional(
      Type.String({ format: 'email', maxLength: 254, description: "Who gets the test message; default the caller's own email" }),
    ),
  },
  { additionalProperties: false },
);

export type SendMailboxTestEmail = Static<typeof SendMailboxTestEmailSchema>;

export const MailboxTestEmailSchema = Type.Object(
  {
    id: { ...UlidSchema, description: 'The message in the outbox (GET /v1/outbox), where its delivery shows' },
    to: Type.String(),
    from: Type.String({ description: 'The mailbox, as the message is sent from it' }),
    subject: Type.String(),
    status: StringEnum(['pending', 'sending', 'sent', 'failed', 'undeliverable'] as const, {
      description: "The outbox message's status: pending until a worker sends it",
    }),
    createdAt: TimestampSchema,
  },
  { additionalProperties: false, description: 'A test message queued in the outbox' },
);

export const MailboxDnsRecordSchema = Type.Object(
  {
    purpose: StringEnum(['mx', 'spf', 'dkim', 'verification'] as const, {
      description:
        "mx: mail for the domain reaches this instance; spf: the instance's outgoing server may send as the domain; " +
        "dkim: the key that checks its signatures; verification: proves the address is the organization's",
    }),
    type: StringEnum(['MX', 'TXT'] as const),
    name: Type.String({ description: 'The record name, a fully qualified domain name' }),
    value: Type.String({ description: 'The record value (for MX, the host the mail goes to)' }),
    priority: Nullable(Type.Integer({ description: 'MX only: the preference; null for TXT' })),
    description: Type.String({ description: 'What the record does, and what to watch for when publishing it' }),
  },
  { additionalProperties: false },
);

export const MailboxDnsSetupSchema = Type.Object(
  {
    domain: Type.String({ description: "The address's domain" }),
    records: Type.Array(MailboxDnsRecordSchema, { description: 'The records to publish, in the order to publish them' }),
    notes: Type.Array(Type.String(), {
      description: 'Records not given and why (no DKIM signing configured, no outgoing server, an IMAP mailbox needs no MX…)',
    }),
  },
  {
    additionalProperties: false,
    description: "The DNS records that make the address work with this instance, from the instance's configuration",
  },
);
