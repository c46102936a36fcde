import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createGuardedFetch,
  type GuardedFetch,
  isBlockedError,
  isPublicAddress,
  parseOutboundPolicy,
  staticUrlProblem,
  urlAllowed,
} from './guarded-fetch.js';

// No database here: the guard is pure network policy.

describe('outbound policy', () => {
  it.each([
    ['8.8.8.8', true],
    ['2606:4700:4700::1111', true],
    ['127.0.0.1', false],
    ['10.1.2.3', false],
    ['172.16.0.1', false],
    ['192.168.1.1', false],
    ['169.254.169.254', false],
    ['100.64.0.1', false],
    ['0.0.0.0', false],
    ['::1', false],
    ['fc00::1', false],
    ['fe80::1', false],
    ['::ffff:127.0.0.1', false],
    ['::ffff:10.0.0.1', false],
    ['64:ff9b::a00:1', false],
    // Every IPv6 form of an IPv4 address: IPv4-compatible (::/96) and the unspecified address…
    ['::127.0.0.1', false],
    ['::7f00:1', false],
    ['0:0:0:0:0:0:127.0.0.1', false],
    ['::10.0.0.1', false],
    ['::8.8.8.8', false],
    ['::', false],
    ['::0.0.0.0', false],
    // …IPv4-mapped, also written in hex, judged as the IPv4 address…
    ['::ffff:7f00:1', false],
    ['::ffff:a9fe:a9fe', false],
    ['0:0:0:0:0:ffff:192.168.1.1', false],
    ['::ffff:8.8.8.8', true],
    // …and the translation prefixes, refused whatever they carry: SIIT, NAT64, 6to4, Teredo.
    ['::ffff:0:127.0.0.1', false],
    ['64:ff9b::127.0.0.1', false],
    ['64:ff9b::c0a8:101', false],
    ['64:ff9b:1::a00:1', false],
    ['64:ff9b:1:ffff::7f00:1', false],
    ['2002:7f00:1::', false],
    ['2002:a00:1::1', false],
    ['2002:c0a8:101:1::1', false],
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', false],
    ['2001::7f00:1', false],
  ])('%s is public: %s', (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });

  it('allowlists hosts with or without a port, IPv6 in brackets', () => {
    const policy = parseOutboundPolicy(' 127.0.0.1 , mcp.internal:8443, [::1]:9000, LOCALHOST.');
    expect(policy.isAllowlisted('127.0.0.1', 1234)).toBe(true);
    expect(policy.isAllowlisted('mcp.internal', 8443)).toBe(true);
    expect(policy.isAllowlisted('mcp.internal', 443)).toBe(false);
    expect(policy.isAllowlisted('::1', 9000)).toBe(true);
    expect(policy.isAllowlisted('[::1]', 9001)).toBe(false);
    expect(policy.isAllowlisted('localhost', 80)).toBe(true);
    expect(parseOutboundPolicy(undefined).isAllowlisted('127.0.0.1', 80)).toBe(false);
  });

  it.each([
    ['https://mcp.example.com/mcp', null],
    ['ftp://mcp.example.com/', 'url must be an http or https URL'],
    ['https://a:b@mcp.example.com/', 'url must not contain a user name or password'],
    ['https://mcp.example.com/#x', 'url must not contain a fragment'],
    ['http://mcp.example.com/', 'url must use https (plain http only for hosts in OUTBOUND_ALLOWED_HOSTS)'],
    ['https://192.168.0.10/', 'url points to a private or reserved address'],
    ['http://127.0.0.1:8080/mcp', null],
  ])('%s: %s', (url, problem) => {
    expect(staticUrlProblem(url, parseOutboundPolicy('127.0.0.1'))).toBe(problem);
  });

  it.each([
    'https://[::127.0.0.1]/',
    'https://[::7f00:1]:8443/mcp',
    'https://[::ffff:7f00:1]/',
    'https://[64:ff9b::a9fe:a9fe]/latest/meta-data',
    'https://[2002:a9fe:a9fe::1]/',
    'https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/',
    'https://[::]/',
  ])('refuses %s, an IPv6 literal for an IPv4 address that is not public', (url) => {
    expect(staticUrlProblem(url, parseOutboundPolicy(undefined))).toBe('url points to a private or reserved address');
  });

  it('checks the text as sent (no leading blanks) and names the field it is given', () => {
    const policy = parseOutboundPolicy(undefined);
    expect(staticUrlProblem(' https://mcp.example.com/', policy)).toBe('url must be an http or https URL');
    expect(staticUrlProblem('https://10.0.0.1/health', policy, 'health_check_url')).toBe(
      'health_check_url points to a private or reserved address',
    );
  });

  it('resolves names before a connect: a name for loopback is not allowed', async () => {
    const none = parseOutboundPolicy(undefined);
    expect(await urlAllowed('https://localhost/mcp', none)).toBe(false);
    expect(await urlAllowed('https://localhost/mcp', parseOutboundPolicy('localhost'))).toBe(true);
  });
});

describe('guardedFetch', () => {
  let server: Server;
  let port: number;
  let connections = 0;
  let open: GuardedFetch;
  let closed: GuardedFetch;

  beforeAll(async () => {
    server = createServer((request, response) => {
      if (request.url === '/redirect') {
        response.writeHead(302, { location: 'https://10.255.255.1/metadata' }).end();
      } else if (request.url === '/declared') {
        const body = 'y'.repeat(5 * 1024 * 1024);
        response.writeHead(500, { 'content-type': 'text/plain', 'content-length': String(body.length) }).end(body);
      } else if (request.url === '/large') {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(`"${'x'.repeat(5 * 1024 * 1024)}"`);
      } else {
        response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      }
    });
    server.on('connection', () => {
      connections++;
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    open = createGuardedFetch(parseOutboundPolicy('127.0.0.1'));
    closed = createGuardedFetch(parseOutboundPolicy(undefined));
  });
  afterAll(async () => {
    await open.close();
    await closed.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  async function failure(promise: Promise<unknown>): Promise<unknown> {
    return promise.then(
      () => {
        throw new Error('expected the request to fail');
      },
      (error: unknown) => error,
    );
  }

  it('reaches an allowlisted host and answers a global Response', async () => {
    const response = await open.fetch(`http://127.0.0.1:${port}/`);
    expect(response).toBeInstanceOf(Response);
    expect(await response.json()).toEqual({ ok: true });
  });

  it.each([
    ['plain http to a loopback IP', () => `http://127.0.0.1:${port}/`],
    ['https to a loopback IP', () => `https://127.0.0.1:${port}/`],
    ['a name resolving to loopback', () => `https://localhost:${port}/`],
    ['the metadata address', () => 'https://169.254.169.254/latest/meta-data'],
    ['loopback as IPv4-compatible IPv6', () => `https://[::127.0.0.1]:${port}/`],
    ['loopback as IPv4-mapped IPv6 in hex', () => `https://[::ffff:7f00:1]:${port}/`],
  ])('refuses %s without opening a socket to it', async (_, url) => {
    const before = connections;
    const error = await failure(closed.fetch(url()));
    expect(isBlockedError(error)).toBe(true);
    expect(connections).toBe(before);
  });

  it('refuses a redirect from an allowed host to a private address at connect time', async () => {
    const error = await failure(open.fetch(`http://127.0.0.1:${port}/redirect`, { redirect: 'follow' }));
    expect(isBlockedError(error)).toBe(true);
  });

  it('cuts off an oversized answer', async () => {
    const response = await open.fetch(`http://127.0.0.1:${port}/large`);
    await expect(response.text()).rejects.toThrow();
    await expect(open.fetch(`http://127.0.0.1:${port}/declared`)).rejects.toThrow('response too large');
  });

  it('with a limit of its own that truncates, ends an oversized answer there, keeping its status', async () => {
    const truncating = createGuardedFetch(parseOutboundPolicy('127.0.0.1'), {
      maxResponseBytes: 1000,
      oversizedResponse: 'truncate',
    });
    try {
      const streamed = await truncating.fetch(`http://127.0.0.1:${port}/large`);
      expect(streamed.status).toBe(200);
      expect(await streamed.text()).toBe(`"${'x'.repeat(999)}`);
      const declared = await truncating.fetch(`http://127.0.0.1:${port}/declared`);
      expect(declared.status).toBe(500);
      expect(await declared.text()).toBe('y'.repeat(1000));
      // Small answers pass whole.
      expect(await (await truncating.fetch(`http://127.0.0.1:${port}/`)).json()).toEqual({ ok: true });
    } finally {
      await truncating.close();
    }
  });
});
