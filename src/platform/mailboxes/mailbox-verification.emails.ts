/** The text of the email that carries a mailbox's verification link. Plain text: the link and who asks are all that matter. */

const dateOf = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;

export function mailboxVerificationEmail(input: { organizationName: string; address: string; link: string; expiresAt: string }): {
  subject: string;
  text: string;
} {
  return {
    subject: `Confirm ${input.address} as a support address of ${input.organizationName}`,
    text: [
      `${input.organizationName} wants to use ${input.address} as a support address on Switchboard:`,
      'mail sent to it would become their tickets, and their replies would be sent from it.',
      '',
      'If you set this up, open this link and confirm:',
      input.link,
      '',
      `The link works once, until ${dateOf(input.expiresAt)}. If you do not know ${input.organizationName}, ` +
        'ignore this email: nothing changes unless someone who reads this address confirms.',
    ].join('\n'),
  };
}
