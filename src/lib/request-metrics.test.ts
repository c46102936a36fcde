import { Counter, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { createRequestMetrics } from './request-metrics.js';

const BUCKETS = [0.001, 0.01, 0.1, 1];

/** The same observations through prom-client's own counter and histogram: what the exposition must read. */
function reference() {
  const registry = new Registry();
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by area, method, route pattern and status',
    labelNames: ['area', 'method', 'route', 'status'],
    registers: [registry],
  });
  const durations = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by area, method and route pattern',
    labelNames: ['area', 'method', 'route'],
    buckets: BUCKETS,
    registers: [registry],
  });
  return {
    registry,
    observe(area: string, method: string, route: string, status: number, seconds: number) {
      requests.inc({ area, method, route, status: String(status) });
      durations.observe({ area, method, route }, seconds);
    },
  };
}

const OBSERVATIONS: [string, string, string, number, number][] = [
  ['platform', 'GET', '/v1/tickets/:id', 200, 0.0004],
  ['platform', 'GET', '/v1/tickets/:id', 200, 0.001],
  ['platform', 'GET', '/v1/tickets/:id', 404, 0.02],
  ['platform', 'POST', '/v1/tickets/:id/comment', 201, 0.3],
  ['platform', 'POST', '/v1/tickets/:id/comment', 201, 4],
  ['helpCenter', 'GET', 'unmatched', 404, 0.0101],
];

describe('request metrics', () => {
  it('read as the exposition prom-client would write for the same requests (counts, buckets, sums)', async () => {
    const registry = new Registry();
    const metrics = createRequestMetrics(registry, BUCKETS);
    const expected = reference();
    for (const observation of OBSERVATIONS) {
      metrics.observe(...observation);
      expected.observe(...observation);
    }
    expect(await registry.metrics()).toBe(await expected.registry.metrics());
  });

  it('expose both metrics, without series, before any request', async () => {
    const registry = new Registry();
    createRequestMetrics(registry, BUCKETS);
    expect(await registry.metrics()).toBe(await reference().registry.metrics());
  });
});
