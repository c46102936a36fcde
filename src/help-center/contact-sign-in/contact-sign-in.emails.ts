/** The text of the email that carries a help center's sign-in link. Plain text: the link is all that matters. */

const dateOf = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;

export function signInLinkEmail(input: { helpCenterName: string; link: string; expiresAt: string }): {
  subject: string;
  text: string;
} {
  return {
    subject: `Sign in to ${input.helpCenterName}`,
    text: [
      `Someone asked to sign in to ${input.helpCenterName} with this email address.`,
      '',
      'Sign in here:',
      input.link,
      '',
      `The link works once, until ${dateOf(input.expiresAt)}. If you did not ask, ignore this email.`,
    ].join('\n'),
  };
}
