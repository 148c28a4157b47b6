import { promClient, talliedCounter, type PluginHost } from '@kapi/apiserver';
import type { ClassifiedSchema, FlowConfig } from './config.js';
import type { GateMetrics } from './gate.js';

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
  const queueLength = new promClient.Histogram({
    name: 'apiserver_flowcontrol_request_queue_length_after_enqueue',
    help: 'Length of queue in the API Priority and Fairness subsystem, as seen by each request after it is enqueued',
    labelNames,
    buckets: [0, 10, 25, 50, 100, 250, 500, 1000],
    registers: [registry],
  });
  const wait = new promClient.Histogram({
    name: 'apiserver_flowcontrol_request_wait_duration_seconds',
    help: 'Length of time a request spent waiting in its queue',
    labelNames: ['flow_schema', 'priority_level', 'execute'],
    buckets: [0, 0.005, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30],
    registers: [registry],
  });
  host.metrics.onCollect(() => {
    inQueue.reset();
    executing.reset();
    executingSeats.reset();
    for (const gauge of [nominal, current, lower, upper]) gauge.reset();
    const state = config();
    for (const schema of state.schemas) {
      const labels = { flow_schema: schema.name, priority_level: schema.level.name };
      inQueue.set(labels, schema.counts.waiting);
      executing.set(labels, schema.counts.executing);
      executingSeats.set(labels, schema.counts.executingSeats);
    }
    for (const level of state.levels.values()) {
      if (level.exempt || !level.queueSet) continue;
      const labels = { priority_level: level.name };
      nominal.set(labels, level.nominalLimit);
      current.set(labels, level.queueSet.concurrencyLimit);
      lower.set(labels, level.minLimit);
      upper.set(labels, level.maxLimit);
    }
  });
  // One bound series per schema and level, so counting a request neither hashes nor checks its labels.
  const bound = new WeakMap<ClassifiedSchema, () => void>();
  return {
    dispatched(schema) {
      let count = bound.get(schema);
      if (!count) bound.set(schema, (count = dispatched.bind(schema.name, schema.level.name)));
      count();
    },
    enqueued(schema, length) {
      queueLength.observe({ flow_schema: schema.name, priority_level: schema.level.name }, length);
    },
    waited(schema, seconds, executed) {
      wait.observe({ flow_schema: schema.name, priority_level: schema.level.name, execute: String(executed) }, seconds);
    },
    rejected(schema, reason) {
      host.metrics.flowcontrolRejected.add(schema.name, schema.level.name, reason);
    },
  };
}
