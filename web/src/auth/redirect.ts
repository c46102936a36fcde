/**
 * Where to go after signing in: a path of the console only, never another site (a `redirect`
 * parameter is whatever a link said).
 */
export function safeRedirect(redirect: string | undefined): string {
  if (redirect?.startsWith('/') && !redirect.startsWith('//') && !redirect.startsWith('/\\')) {
    return redirect;
  }
  return '/';
}
