import type { LightMyRequestResponse } from 'fastify';
import { DomUtils, parseDocument } from 'htmlparser2';
import { expect } from 'vitest';
import { makeOrganization, type TestOrganization } from './factories.js';
import type { TestApp } from './harness.js';

/** The texts of every `name` element of a page, whitespace collapsed. */
export const textsOf = (html: string, name: string) =>
  DomUtils.findAll((element) => element.name === name, parseDocument(html).children).map((element) =>
    DomUtils.textContent(element).replace(/\s+/g, ' ').trim(),
  );

export interface Published {
  _id: string;
  uid: number;
  slug: string;
}

/** A help center with two public collections, a protected one, and a published article in each. */
export interface SiteFixture {
  acme: TestOrganization;
  helpCenterId: string;
  slug: string;
  gettingStarted: Published;
  billing: Published;
  partners: Published;
  install: Published;
  refunds: Published;
  call(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object): Promise<LightMyRequestResponse>;
  publish(collectionId: string, payload: object): Promise<Published>;
}

export async function makeSiteFixture(harness: TestApp, name: string): Promise<SiteFixture> {
  const acme = await makeOrganization(harness);
  const call: SiteFixture['call'] = (method, url, payload) =>
    harness.app.inject({ method, url, headers: acme.headers, ...(payload ? { payload } : {}) });
  const ok = async (method: 'POST' | 'PATCH', url: string, payload?: object) => {
    const response = await call(method, url, payload);
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.json().data;
  };
  const publish = async (collectionId: string, payload: object) => {
    const created = await ok('POST', '/articles', { collectionId, ...payload });
    return (await ok('POST', `/articles/${created._id}/publish`)) as Published;
  };
  const helpCenter = await ok('POST', '/help-centers', { name, meta: { description: 'Answers from the Acme team.' } });
  const helpCenterId = helpCenter._id;
  const gettingStarted = await ok('POST', '/collections', { helpCenterId, name: 'Getting started' });
  const billing = await ok('POST', '/collections', { helpCenterId, name: 'Billing' });
  const partners = await ok('POST', '/collections', { helpCenterId, name: 'Partners', isProtected: true });
  const install = await publish(gettingStarted._id, { title: 'Install the app', contentHtml: '<p>Download it.</p>' });
  const refunds = await publish(billing._id, { title: 'Refunds', contentHtml: '<p>Ask within thirty days.</p>' });
  await publish(partners._id, { title: 'Partner pricing', contentHtml: '<p>Secret discount tiers.</p>' });
  return { acme, helpCenterId, slug: helpCenter.slug, gettingStarted, billing, partners, install, refunds, call, publish };
}

/** A request to the messenger's panel API of help center `slug`, as the panel makes it (the visitor's bearer token, no API key). */
export function widgetInject(
  harness: TestApp,
  slug: string,
  method: 'GET' | 'POST',
  path: string,
  options: { token?: string | undefined; payload?: object | undefined } = {},
): Promise<LightMyRequestResponse> {
  return harness.app.inject({
    method,
    url: `/widget/${slug}/api${path}`,
    headers: options.token ? { authorization: `Bearer ${options.token}` } : {},
    ...(options.payload ? { payload: options.payload } : {}),
  });
}
