import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The process's Prometheus metrics, in one registry that every part of the platform records into
 * (RPC handlers, the outbox relay, durable consumers, BullMQ workers, the gateway's HTTP requests).
 * Labels are bounded sets only (subjects, queue names, error codes, route patterns): never an id,
 * an address or anything a user typed.
 */
export const metricsRegistry = new Registry();

let processMetricsOn = false;

/** Node's own metrics (CPU, memory, event loop lag, GC, handles) labelled with the app; once per process. */
export function enableProcessMetrics(app: string): void {
  if (processMetricsOn) return;
  processMetricsOn = true;
  metricsRegistry.setDefaultLabels({ app });
  collectDefaultMetrics({ register: metricsRegistry });
}

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export const rpcRequests = new Counter({
  name: 'lv_rpc_requests_total',
  help: 'RPC requests handled, by subject and outcome (ok or the error code)',
  labelNames: ['subject', 'outcome'] as const,
  registers: [metricsRegistry],
});

export const rpcDuration = new Histogram({
  name: 'lv_rpc_request_duration_seconds',
  help: 'Time to answer an RPC request, by subject and outcome',
  labelNames: ['subject', 'outcome'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [metricsRegistry],
});

export const httpRequests = new Counter({
  name: 'lv_http_requests_total',
  help: 'HTTP requests answered, by method, route pattern and status code',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [metricsRegistry],
});

export const httpDuration = new Histogram({
  name: 'lv_http_request_duration_seconds',
  help: 'Time to answer an HTTP request, by method, route pattern and status code',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [metricsRegistry],
});

export const consumerEvents = new Counter({
  name: 'lv_consumer_events_total',
  help: 'Events delivered to a durable consumer, by consumer and outcome (handled, duplicate, failed, parked)',
  labelNames: ['consumer', 'outcome'] as const,
  registers: [metricsRegistry],
});

export const consumerRedeliveries = new Counter({
  name: 'lv_consumer_redeliveries_total',
  help: 'Deliveries of an event that JetStream had delivered before (a nak, a crash or an ack that timed out)',
  labelNames: ['consumer'] as const,
  registers: [metricsRegistry],
});

export const outboxPublished = new Counter({
  name: 'lv_outbox_published_total',
  help: 'Outbox rows published to JetStream and removed from the outbox',
  labelNames: ['database'] as const,
  registers: [metricsRegistry],
});

export const jobsProcessed = new Counter({
  name: 'lv_queue_jobs_processed_total',
  help: 'BullMQ job attempts worked by this process, by queue and outcome (completed, failed, or delayed: a timed job that woke early and waits again)',
  labelNames: ['queue', 'outcome'] as const,
  registers: [metricsRegistry],
});

export const jobDuration = new Histogram({
  name: 'lv_queue_job_duration_seconds',
  help: 'Time to work one BullMQ job attempt, by queue and outcome',
  labelNames: ['queue', 'outcome'] as const,
  buckets: [...LATENCY_BUCKETS, 30, 60, 300],
  registers: [metricsRegistry],
});

/** A gauge read at scrape time from sources registered while they run (relays, queues). */
export interface GaugeSource<L extends string> {
  /** The values to report, each with its labels. */
  read(): Promise<{ labels: Record<L, string>; value: number }[]>;
}

/** A source that does not answer in this time is left out of the scrape rather than holding it. */
export const SCRAPE_SOURCE_TIMEOUT_MS = 5000;

function readWithin<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([promise, new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error('timeout')), ms); })]).finally(() => clearTimeout(timer));
}

/** A gauge whose values come from registered sources at each scrape; a failing source is skipped. */
export function sourcedGauge<L extends string>(name: string, help: string, labelNames: readonly L[]): { add(source: GaugeSource<L>): () => void } {
  const sources = new Set<GaugeSource<L>>();
  new Gauge<L>({
    name,
    help,
    labelNames,
    registers: [metricsRegistry],
    async collect() {
      this.reset();
      const readings = await Promise.all([...sources].map((source) => readWithin(source.read(), SCRAPE_SOURCE_TIMEOUT_MS).catch(() => [])));
      for (const { labels, value } of readings.flat()) this.set(labels as never, value);
    },
  });
  return {
    add(source) {
      sources.add(source);
      return () => sources.delete(source);
    },
  };
}

export const outboxPending = sourcedGauge('lv_outbox_pending', 'Outbox rows waiting to be published to JetStream', ['database']);
export const outboxLag = sourcedGauge('lv_outbox_lag_seconds', 'Age of the oldest outbox row not yet published (0 when none waits)', ['database']);
export const consumerPending = sourcedGauge(
  'lv_consumer_pending',
  "A durable consumer's lag as JetStream counts it: events not yet delivered (waiting) and delivered but not acknowledged (unacknowledged)",
  ['consumer', 'state'],
);
export const queueJobs = sourcedGauge('lv_queue_jobs', 'Jobs in each state of a queue this process works (waiting, prioritized, active, delayed, failed, completed)', ['queue', 'state']);

/** The Prometheus text of every metric of the process. */
export function renderMetrics(): Promise<string> {
  return metricsRegistry.metrics();
}

export const METRICS_CONTENT_TYPE = metricsRegistry.contentType;
