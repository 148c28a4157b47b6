import { FastHistogram, promClient, talliedCounter, type HistogramSeries, type PluginHost } from '@kapi/apiserver';
import type { ClassifiedSchema, FlowConfig } from './config.js';
import type { GateMetrics } from './gate.js';

/** kube's requestDurationSecondsBuckets (waiting and execution). */
const DURATION_BUCKETS = [0, 0.005, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30];

/**
 * kube's apiserver_flowcontrol_* metrics: rejections (the server's own counter, by schema, level and reason),
 * dispatches, and, read at scrape, requests waiting and running and the levels' nominal seats.
 */
export function flowControlMetrics(host: Pick<PluginHost, 'metrics'>, config: () => FlowConfig): GateMetrics {
  const { registry } = host.metrics;
  const labelNames = ['flow_schema', 'priority_level'] as const;
  const dispatched = talliedCounter({
    name: 'apiserver_flowcontrol_dispatched_requests_total',
    help: 'Number of requests executed by API Priority and Fairness subsystem',
    labelNames,
    registers: [registry],
  });
  const inQueue = new promClient.Gauge({ name: 'apiserver_flowcontrol_current_inqueue_requests', help: 'Number of requests currently pending in queues of the API Priority and Fairness subsystem', labelNames, registers: [registry] });
  const executing = new promClient.Gauge({ name: 'apiserver_flowcontrol_current_executing_requests', help: 'Number of requests in initial (for a WATCH) or any (for a non-WATCH) execution stage in the API Priority and Fairness subsystem', labelNames, registers: [registry] });
  const executingSeats = new promClient.Gauge({ name: 'apiserver_flowcontrol_current_executing_seats', help: 'Concurrency (number of seats) occupied by the currently executing (initial stage for a WATCH, any stage otherwise) requests in the API Priority and Fairness subsystem', labelNames, registers: [registry] });
  const nominal = new promClient.Gauge({ name: 'apiserver_flowcontrol_nominal_limit_seats', help: 'Nominal number of execution seats configured for each priority level', labelNames: ['priority_level'], registers: [registry] });
  const current = new promClient.Gauge({ name: 'apiserver_flowcontrol_current_limit_seats', help: 'current derived number of execution seats available to each priority level', labelNames: ['priority_level'], registers: [registry] });
  const lower = new promClient.Gauge({ name: 'apiserver_flowcontrol_lower_limit_seats', help: 'Configured lower bound on number of execution seats available to each priority level', labelNames: ['priority_level'], registers: [registry] });
  const upper = new promClient.Gauge({ name: 'apiserver_flowcontrol_upper_limit_seats', help: 'Configured upper bound on number of execution seats available to each priority level', labelNames: ['priority_level'], registers: [registry] });
  // The histograms observed on every request are FastHistograms (prom-client's hash their labels on each observation).
  const queueLength = new FastHistogram(
    'apiserver_flowcontrol_request_queue_length_after_enqueue',
    'Length of queue in the API Priority and Fairness subsystem, as seen by each request after it is enqueued',
    [0, 10, 25, 50, 100, 250, 500, 1000],
    labelNames,
    registry,
  );
  const wait = new promClient.Histogram({
    name: 'apiserver_flowcontrol_request_wait_duration_seconds',
    help: 'Length of time a request spent waiting in its queue',
    labelNames: ['flow_schema', 'priority_level', 'execute'],
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  const inQueueSeats = new promClient.Gauge({ name: 'apiserver_flowcontrol_current_inqueue_seats', help: 'Number of seats currently pending in queues of the API Priority and Fairness subsystem', labelNames, registers: [registry] });
  const currentR = new promClient.Gauge({ name: 'apiserver_flowcontrol_current_r', help: 'R(time of last change)', labelNames: ['priority_level'], registers: [registry] });
  const execution = new FastHistogram(
    'apiserver_flowcontrol_request_execution_seconds',
    'Duration of initial stage (for a WATCH) or any (for a non-WATCH) stage of request execution in the API Priority and Fairness subsystem',
    DURATION_BUCKETS,
    ['flow_schema', 'priority_level', 'type'],
    registry,
  );
  const watchCount = new FastHistogram('apiserver_flowcontrol_watch_count_samples', 'count of watchers for mutating requests in API Priority and Fairness', [0, 1, 10, 100, 1000, 10000], labelNames, registry);
  const estimatedSeats = new FastHistogram(
    'apiserver_flowcontrol_work_estimated_seats',
    'Number of estimated seats (maximum of initial and final seats) associated with requests in API Priority and Fairness',
    [1, 2, 4, 10],
    labelNames,
    registry,
  );
  host.metrics.onCollect(() => {
    inQueue.reset();
    inQueueSeats.reset();
    currentR.reset();
    executing.reset();
    executingSeats.reset();
    for (const gauge of [nominal, current, lower, upper]) gauge.reset();
    const state = config();
    for (const schema of state.schemas) {
      const labels = { flow_schema: schema.name, priority_level: schema.level.name };
      inQueue.set(labels, schema.counts.waiting);
      inQueueSeats.set(labels, schema.counts.waitingSeats);
      executing.set(labels, schema.counts.executing);
      executingSeats.set(labels, schema.counts.executingSeats);
    }
    for (const level of state.levels.values()) {
      if (level.exempt || !level.queueSet) continue;
      const labels = { priority_level: level.name };
      nominal.set(labels, level.nominalLimit);
      currentR.set(labels, level.queueSet.virtualTime);
      current.set(labels, level.queueSet.concurrencyLimit);
      lower.set(labels, level.minLimit);
      upper.set(labels, level.maxLimit);
    }
  });
  // One bound series per schema and level, so counting a request neither hashes nor checks its labels.
  interface SchemaSeries extends Record<'seats' | 'watches' | 'regular' | 'watch' | 'queueLength', HistogramSeries> {
    dispatched(): void;
  }
  const series = new WeakMap<ClassifiedSchema, SchemaSeries>();
  const seriesOf = (schema: ClassifiedSchema) => {
    let s = series.get(schema);
    if (!s) {
      const labels = [schema.name, schema.level.name];
      s = {
        dispatched: dispatched.bind(schema.name, schema.level.name),
        seats: estimatedSeats.labels(...labels),
        watches: watchCount.labels(...labels),
        regular: execution.labels(...labels, 'regular'),
        watch: execution.labels(...labels, 'watch'),
        queueLength: queueLength.labels(...labels),
      };
      series.set(schema, s);
    }
    return s;
  };
  return {
    dispatched(schema) {
      seriesOf(schema).dispatched();
    },
    enqueued(schema, length) {
      seriesOf(schema).queueLength.observe(length);
    },
    waited(schema, seconds, executed) {
      wait.observe({ flow_schema: schema.name, priority_level: schema.level.name, execute: String(executed) }, seconds);
    },
    estimated(schema, work) {
      const series = seriesOf(schema);
      series.seats.observe(Math.max(work.initialSeats, work.finalSeats));
      if (work.watchCount !== undefined) series.watches.observe(work.watchCount);
    },
    executed(schema, seconds, watch) {
      (watch ? seriesOf(schema).watch : seriesOf(schema).regular).observe(seconds);
    },
    rejected(schema, reason) {
      host.metrics.flowcontrolRejected.add(schema.name, schema.level.name, reason);
    },
  };
}
