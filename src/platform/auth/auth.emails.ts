/** The texts of the emails that carry invitation and password-reset links. Plain text: the link is all that matters. */

const dateOf = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;

export function invitationEmail(input: {
  organizationName: string;
  inviterName: string | null;
  link: string;
  expiresAt: string;
}): { subject: string; text: string } {
  const who = input.inviterName ? `${input.inviterName} invited you` : 'You are invited';
  return {
    subject: `You are invited to ${input.organizationName} on Switchboard`,
    text: [
      `${who} to sign in to ${input.organizationName} on Switchboard.`,
      '',
      'Choose your password here:',
      input.link,
      '',
      `The link works once, until ${dateOf(input.expiresAt)}. If you were not expecting it, ignore this email.`,
    ].join('\n'),
  };
}

export function passwordResetEmail(input: { organizationName: string; link: string; expiresAt: string }): {
  subject: string;
  text: string;
} {
  return {
    subject: 'Reset your Switchboard password',
    text: [
      `Someone asked to reset your password for ${input.organizationName} on Switchboard.`,
      '',
      'Choose a new password here:',
      input.link,
      '',
      `The link works once, until ${dateOf(input.expiresAt)}. If you did not ask, ignore this email: your password stays as it is.`,
    ].join('\n'),
  };
}
