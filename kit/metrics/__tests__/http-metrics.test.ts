import { EventEmitter } from 'node:events';
import type { NextFunction, Request, Response } from 'express';
import { httpMetrics } from '../http-metrics.js';
import { metricsRegistry, turnMetricsOff, turnMetricsOn } from '../metrics.js';

/**
 * The HTTP metrics as Prometheus reads them (docs/observability.md#the-metrics): requests are tallied in
 * place and handed to the exposition when it is scraped, so what a scrape shows must add up across
 * scrapes, never count a request twice, and keep prom-client's histogram format.
 */
const middleware = httpMetrics('test-env');

/** One request through the middleware, answered `status` by `route` after about `ms`. */
async function request(route: string | undefined, status: number, ms = 0): Promise<void> {
  const res = Object.assign(new EventEmitter(), { statusCode: status }) as unknown as Response;
  const req = { method: 'GET', route: route === undefined ? undefined : { path: route } } as unknown as Request;
  await new Promise<void>(resolve => middleware(req, res, resolve as NextFunction));
  if (ms) await new Promise(resolve => setTimeout(resolve, ms));
  res.emit('finish');
}

const lines = async (prefix: string) =>
  (await metricsRegistry.metrics()).split('\n').filter(line => line.startsWith(prefix) && line.includes('test-env'));

beforeAll(() => turnMetricsOn());
afterAll(() => turnMetricsOff());

test('requests are counted by route template, method and status, and add up across scrapes', async () => {
  await request('/v1/things/:id', 200);
  await request('/v1/things/:id', 200);
  await request('/v1/things/:id', 404);
  await request(undefined, 404);
  expect(await lines('polar_http_request_total')).toEqual([
    'polar_http_request_total{environment="test-env",endpoint="/v1/things/:id",method="GET",status_code="200",status_class="2xx"} 2',
    'polar_http_request_total{environment="test-env",endpoint="/v1/things/:id",method="GET",status_code="404",status_class="4xx"} 1',
    'polar_http_request_total{environment="test-env",endpoint="unmatched",method="GET",status_code="404",status_class="4xx"} 1',
  ]);
  // A scrape with nothing new shows the same; the next request adds one.
  expect(await lines('polar_http_request_total')).toHaveLength(3);
  expect((await lines('polar_http_request_total'))[0]).toMatch(/ 2$/);
  await request('/v1/things/:id', 200);
  expect((await lines('polar_http_request_total'))[0]).toMatch(/ 3$/);
});

test('durations are a cumulative histogram per route, method and status class', async () => {
  await request('/v1/slow', 201, 30);
  await request('/v1/slow', 204);
  const text = await lines('polar_http_request_duration_seconds');
  const of = (suffix: string) =>
    text.filter(line => line.startsWith(`polar_http_request_duration_seconds_${suffix}{`) && line.includes('/v1/slow'));
  const buckets = of('bucket');
  expect(buckets.map(line => /le="([^"]+)"/.exec(line)?.[1])).toEqual([
    '0.01',
    '0.025',
    '0.05',
    '0.1',
    '0.25',
    '0.5',
    '1',
    '2.5',
    '5',
    '10',
    '30',
    '+Inf',
  ]);
  expect(buckets[0]).toBe(
    'polar_http_request_duration_seconds_bucket{environment="test-env",endpoint="/v1/slow",method="GET",status_class="2xx",le="0.01"} 1',
  );
  const counts = buckets.map(line => Number(line.split(' ').pop()));
  // The quick one is under 10 ms; the one that waited 30 ms is over 25 ms and, here, under a second.
  expect(counts[1]).toBe(1);
  expect(counts[6]).toBe(2);
  expect(counts.at(-1)).toBe(2);
  expect(counts.every((n, i) => i === 0 || n >= counts[i - 1])).toBe(true);
  expect(of('count')).toEqual([
    'polar_http_request_duration_seconds_count{environment="test-env",endpoint="/v1/slow",method="GET",status_class="2xx"} 2',
  ]);
  const sum = Number(of('sum')[0].split(' ').pop());
  expect(sum).toBeGreaterThanOrEqual(0.029);
  expect(sum).toBeLessThan(1);
});

test('nothing is recorded while metrics are off', async () => {
  turnMetricsOff();
  await request('/v1/off', 200);
  turnMetricsOn();
  expect((await lines('polar_http_request')).filter(line => line.includes('/v1/off'))).toEqual([]);
});
