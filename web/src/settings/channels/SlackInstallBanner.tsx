/** What the OAuth callback said when it sent the admin back here (`?slack=installed|error&reason=…`). */
export function SlackInstallBanner({ outcome, reason }: { outcome?: string; reason?: string }) {
  if (outcome === 'installed') {
    return (
      <p
        role="status"
        className="rounded-md border border-emerald-300 bg-emerald-50 px-3 py-2 text-sm text-emerald-900 dark:border-emerald-800 dark:bg-emerald-950 dark:text-emerald-200"
      >
        Slack is installed. Invite the bot to your channels, then say what each is for below.
      </p>
    );
  }
  if (outcome === 'error') {
    return (
      <p
        role="alert"
        className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200"
      >
        Slack was not installed: {reason ?? 'unknown error'}.
      </p>
    );
  }
  return null;
}
