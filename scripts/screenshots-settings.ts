import type { Browser, Page } from 'playwright-core';

const PASSWORD = 'lumen-demo-screens-2026';
const DEMO_EMAIL = 'ana@lumen-demo.example';

/**
 * The settings pages of the README, photographed as the demo organization's admin (the demo
 * sign-in user of a new demo organization). What the demo does not seed (a routing rule, a custom
 * field, named API keys) is made first through the API, as the page's own buttons would.
 */
export async function shootSettings(
  browser: Browser,
  origin: string,
  shoot: (name: string, page: Page) => Promise<void>,
): Promise<void> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: 'light', baseURL: origin });
  const page = await context.newPage();
  try {
    await signInAsDemoAdmin(page);
    const call = apiOf(page);

    const teams = await call<{ id: string; name: string }[]>('GET', '/v1/teams');
    const support = teams.find((team) => team.name === 'Support');
    const billing = teams.find((team) => team.name === 'Billing');
    if (!support || !billing) {
      throw new Error('the demo organization has no Support and Billing teams');
    }
    await page.goto(`/app/settings/teams/${support.id}?tab=hours`);
    await page.getByLabel('Business hours now').waitFor();
    await shoot('settings-team-hours', page);

    await call('POST', `/v1/teams/${support.id}/routing`, {
      name: 'Urgent refunds',
      resultTeamId: billing.id,
      andRules: [
        JSON.stringify({ field: 'priority', operator: 'equals', value: 'high' }),
        JSON.stringify({ field: 'title', operator: 'contains', value: 'refund' }),
      ],
    });
    await page.goto(`/app/settings/routing?teamId=${support.id}`);
    await page.getByRole('button', { name: 'Test a ticket' }).click();
    const sample = page.getByRole('form', { name: 'Sample ticket' });
    await sample.getByRole('textbox', { name: 'Sample title' }).fill('Refund for order 7');
    await sample.getByRole('combobox', { name: 'Sample priority' }).selectOption({ label: 'High' });
    await sample.getByRole('button', { name: 'Run test' }).click();
    // The explanation, rule by rule and condition by condition, is what the picture is for.
    await page.getByRole('region', { name: 'Test result' }).scrollIntoViewIfNeeded();
    await shoot('settings-routing', page);

    const field = await call<{ uid: string }>('POST', '/v1/custom-field', {
      name: 'Plan',
      source: 'ticket',
      fieldType: 'single_choice',
      options: [{ value: 'Starter' }, { value: 'Team' }, { value: 'Enterprise' }],
      hintText: 'The plan the customer pays for',
      mandatoryOnClose: true,
    });
    await page.goto(`/app/settings/custom-fields/${field.uid}`);
    await page.getByRole('button', { name: 'Save' }).waitFor();
    await shoot('settings-custom-field', page);

    const me = await call<{ user: { id: string } }>('GET', '/v1/users/me');
    const zapier = await call<{ apiKey: string }>('POST', `/v1/users/${me.user.id}/api-keys`, { name: 'Zapier' });
    await call('POST', `/v1/users/${me.user.id}/api-keys`, { name: 'Data warehouse export' });
    await fetch(`${origin}/v1/users/me`, { headers: { 'x-api-key': zapier.apiKey } });
    await page.goto('/app/settings/api-keys');
    await page.getByText('Data warehouse export').waitFor();
    await shoot('settings-api-keys', page);
  } finally {
    await context.close();
  }
}

/** Signs the page in to the console as the demo organization's admin. */
export async function signInAsDemoAdmin(page: Page): Promise<void> {
  await page.goto('/app/sign-in');
  await page.getByLabel('Email').fill(DEMO_EMAIL);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('link', { name: 'Settings' }).waitFor();
}

/** The platform API as the signed-in console calls it: the session cookie, and the CSRF token on writes. */
export function apiOf(page: Page) {
  return async <T = unknown>(method: string, path: string, body?: unknown): Promise<T> => {
    const csrf = (await page.context().cookies()).find((cookie) => cookie.name === 'sb_csrf')?.value;
    const response = await page.request.fetch(path, {
      method,
      headers: {
        ...(csrf ? { 'x-csrf-token': decodeURIComponent(csrf) } : {}),
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      ...(body === undefined ? {} : { data: JSON.stringify(body) }),
    });
    if (!response.ok()) {
      throw new Error(`${method} ${path} answered ${response.status()}: ${await response.text()}`);
    }
    return ((await response.json()) as { data: T }).data;
  };
}
