import { Counter, Histogram, type MetricObjectWithValues, type MetricValue, type Registry } from 'prom-client';

/**
 * The two request metrics, counted on every answered request: `http_requests_total` and
 * `http_request_duration_seconds`. prom-client's `inc` and `observe` check the label names and
 * hash the labels on every call (a `labels()` child does it again each time), some 3 µs a request
 * on a read that costs 100 µs in all. Here a request adds to plain numbers of its series, found by
 * one map lookup; the two metrics are still prom-client's (registered, named, helped and exposed by
 * the registry like any other), and answer the series' totals when the registry asks for them.
 */

const REQUEST_LABELS = ['area', 'method', 'route', 'status'] as const;
const DURATION_LABELS = ['area', 'method', 'route'] as const;

type DurationLabels = Record<(typeof DURATION_LABELS)[number], string>;

/** One route's timings (without the status: buckets times statuses would multiply the series for little use). */
interface DurationSeries {
  labels: DurationLabels;
  /** Observations per bucket, not cumulative: `perBucket[i]` counts values in (bounds[i-1], bounds[i]]; the last, values past every bound. */
  perBucket: number[];
  sum: number;
  count: number;
}

/** One request series: its labels' count, and its route's timings. */
interface RequestSeries {
  labels: Record<(typeof REQUEST_LABELS)[number], string>;
  count: number;
  durations: DurationSeries;
}

export interface RequestMetrics {
  observe(area: string, method: string, route: string, status: number, seconds: number): void;
}

export function createRequestMetrics(registry: Registry, buckets: readonly number[]): RequestMetrics {
  const bounds = [...buckets].sort((a, b) => a - b);
  const requests = new Map<string, RequestSeries>();
  const durations = new Map<string, DurationSeries>();

  // `get` answers what `inc` would have counted; nothing else ever adds to these metrics.
  class RequestCounter extends Counter<(typeof REQUEST_LABELS)[number]> {
    override async get() {
      const metric = await super.get();
      return {
        ...metric,
        values: [...requests.values()].map((series) => ({ labels: { ...series.labels }, value: series.count })),
      };
    }
  }
  class RequestDurations extends Histogram<(typeof DURATION_LABELS)[number]> {
    override async get() {
      const header = headerOf(this);
      const values = [...durations.values()].flatMap((series) => durationValues(header.name, bounds, series));
      return { ...header, values };
    }
    /**
     * What the registry formats the exposition from, where it is defined (prom-client's histogram
     * answers it with shared labels apart, and `get` splays them; these values have none).
     */
    async getForPromString() {
      return this.get();
    }
  }
  new RequestCounter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by area, method, route pattern and status',
    labelNames: REQUEST_LABELS,
    registers: [registry],
  });
  new RequestDurations({
    name: 'http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by area, method and route pattern',
    labelNames: DURATION_LABELS,
    buckets: bounds,
    registers: [registry],
  });

  function durationSeries(area: string, method: string, route: string): DurationSeries {
    const key = `${area} ${method} ${route}`;
    let series = durations.get(key);
    if (!series) {
      series = { labels: { area, method, route }, perBucket: new Array(bounds.length + 1).fill(0), sum: 0, count: 0 };
      durations.set(key, series);
    }
    return series;
  }

  return {
    observe(area, method, route, status, seconds) {
      const key = `${area} ${method} ${status} ${route}`;
      let series = requests.get(key);
      if (!series) {
        series = {
          labels: { area, method, route, status: String(status) },
          count: 0,
          durations: durationSeries(area, method, route),
        };
        requests.set(key, series);
      }
      series.count += 1;
      const timings = series.durations;
      let bucket = 0;
      while (bucket < bounds.length && seconds > (bounds[bucket] as number)) {
        bucket += 1;
      }
      timings.perBucket[bucket] = (timings.perBucket[bucket] as number) + 1;
      timings.sum += seconds;
      timings.count += 1;
    },
  };
}

/** A series as Prometheus reads a histogram: cumulative `_bucket`s up to `+Inf`, then `_sum` and `_count`. */
function durationValues(name: string, bounds: readonly number[], series: DurationSeries) {
  let cumulative = 0;
  const values = bounds.map((bound, index) => {
    cumulative += series.perBucket[index] as number;
    return { labels: { le: bound as number | string, ...series.labels }, value: cumulative, metricName: `${name}_bucket` };
  });
  values.push({ labels: { le: '+Inf', ...series.labels }, value: series.count, metricName: `${name}_bucket` });
  return [
    ...values,
    { labels: { ...series.labels }, value: series.sum, metricName: `${name}_sum` },
    { labels: { ...series.labels }, value: series.count, metricName: `${name}_count` },
  ];
}

/** What every prom-client metric answers besides its values: set by its constructor, left out of its typings. */
function headerOf(
  metric: object,
): Pick<MetricObjectWithValues<MetricValue<string>>, 'name' | 'help' | 'type' | 'aggregator' | 'collect'> {
  const { name, help, type, aggregator, collect } = metric as MetricObjectWithValues<MetricValue<string>>;
  return { name, help, type, aggregator, collect };
}
