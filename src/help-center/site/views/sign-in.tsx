import { type SiteAddress, sitePaths } from '../site-address.js';

/** The pages of a contact's sign-in: ask for a link, check your email, continue, a link refused. */

/** Where a form sends its reader back to once signed in: a hidden field, absent without one. */
function NextField({ next }: { next: string | null }) {
  return next ? <input type="hidden" name="next" value={next} /> : '';
}

export function SignInView(props: {
  address: SiteAddress;
  helpCenterName: string;
  next: string | null;
  /** The email sent, kept in the field when it was refused. */
  email?: string;
  error?: string;
  /** A protected help center shows anonymous readers nothing else. */
  protectedHelpCenter?: boolean;
}) {
  const { address, error } = props;
  return (
    <div class="wrap page">
      <h1>Sign in</h1>
      <p>
        {props.protectedHelpCenter ? (
          <>
            <span safe>{props.helpCenterName}</span> is for its customers.{' '}
          </>
        ) : (
          ''
        )}
        Enter the email address you write to support from, and we will email you a link that signs you in.
      </p>
      <form class="form" method="post" action={sitePaths.signIn(address)} novalidate>
        <NextField next={props.next} />
        <label for="sign-in-email">Email address</label>
        <input
          id="sign-in-email"
          type="email"
          name="email"
          value={props.email ?? ''}
          autocomplete="email"
          required
          maxlength="254"
          aria-invalid={error ? 'true' : undefined}
          aria-describedby={error ? 'sign-in-error' : undefined}
        />
        {error ? (
          <p id="sign-in-error" class="error" safe>
            {error}
          </p>
        ) : (
          ''
        )}
        <button class="button" type="submit">
          Email me a sign-in link
        </button>
      </form>
    </div>
  );
}

export function CheckEmailView(props: { address: SiteAddress; next: string | null }) {
  const again = props.next
    ? `${sitePaths.signIn(props.address)}?next=${encodeURIComponent(props.next)}`
    : sitePaths.signIn(props.address);
  return (
    <div class="wrap page">
      <h1>Check your email</h1>
      <p>
        If the address you entered belongs to one of our customers, we have emailed it a link that signs you in. The link works
        once, within 15 minutes.
      </p>
      <p>
        Nothing arrived? Look in your spam folder, or <a href={again}>ask for a new link</a>.
      </p>
    </div>
  );
}

/** Shown by the emailed link: mail scanners open links, so only this button's POST signs in. */
export function ContinueSignInView(props: { address: SiteAddress; helpCenterName: string; token: string; next: string | null }) {
  return (
    <div class="wrap page">
      <h1>
        Sign in to <span safe>{props.helpCenterName}</span>
      </h1>
      <form method="post" action={`${sitePaths.signIn(props.address)}/${encodeURIComponent(props.token)}`}>
        <NextField next={props.next} />
        <button class="button" type="submit">
          Continue
        </button>
      </form>
    </div>
  );
}

export function SignInLinkRefusedView(props: { address: SiteAddress }) {
  return (
    <div class="wrap page">
      <h1>This sign-in link does not work</h1>
      <p>It may have been used already, or have expired: a link works once, within 15 minutes of being sent.</p>
      <p>
        <a href={sitePaths.signIn(props.address)}>Ask for a new link</a>.
      </p>
    </div>
  );
}
