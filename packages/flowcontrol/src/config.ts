import type { FlowSchema, PriorityLevelConfiguration } from '@kapi/api-flowcontrol';
import type { AuthorizationAttributes } from '@kapi/apiserver';
import { Integrator } from './integrator.js';
import { compileFlowSchema, type FlowSchemaMatcher } from './match.js';
import { QueueSet, type QueueSetConfig } from './queue-set.js';

/** The response headers kube sets on every classified request: the UIDs, not the names, of what it matched. */
export const FLOW_SCHEMA_UID_HEADER = 'X-Kubernetes-PF-FlowSchema-UID';
export const PRIORITY_LEVEL_UID_HEADER = 'X-Kubernetes-PF-PriorityLevel-UID';

/** kube's work estimator: a request takes at most this many seats. */
export const MAXIMUM_SEATS = 10;
/** kube's priorityLevelMaxSeatsPercent: a level's widest request takes at most 15% of its seats. */
const MAX_SEATS_SHARE = 0.15;

/** A priority level as the gate uses it. */
export interface PriorityLevel {
  name: string;
  uid: string;
  /** Exempt levels run everything at once. */
  exempt: boolean;
  /** The level's queues and seats (undefined for exempt levels). */
  queueSet?: QueueSet;
  /** The most seats one request may take here. */
  maxSeats: number;
  /** Nominal concurrency limit, in seats (`apiserver_flowcontrol_nominal_limit_seats`). */
  nominalLimit: number;
  /** What borrowing may take it down to (nominal − lendable) and up to (nominal + borrowable). */
  minLimit: number;
  maxLimit: number;
  /** Kept across reconfigurations: smoothed seat demand, and an exempt level's running requests. */
  load: LevelLoad;
}

/** A level's demand as borrowing reads it. */
export interface LevelLoad {
  /** kube's seatDemandStats.smoothed. */
  smoothed: number;
  /** Requests running on an exempt level, and their demand over time (a limited level's is its queue set's). */
  executing: number;
  demand: Integrator;
  /** Requests an exempt level ran (a limited level's count is its queue set's). */
  dispatched: number;
}

/** A FlowSchema with what classification needs, and what it counts (for the metrics). */
export interface ClassifiedSchema {
  schema: FlowSchema;
  matches: FlowSchemaMatcher;
  name: string;
  level: PriorityLevel;
  distinguisher: 'ByUser' | 'ByNamespace' | '';
  /** The response headers of requests it classifies; undefined before the objects exist (no UIDs yet). */
  headers?: Record<string, string>;
  /** Requests of the schema waiting and running now; shared by the schema's versions across reconfigurations. */
  counts: FlowCounts;
}

export interface FlowCounts {
  waiting: number;
  /** Seats the schema's waiting requests will take (kube's apiserver_flowcontrol_current_inqueue_seats). */
  waitingSeats: number;
  executing: number;
  executingSeats: number;
}

export interface FlowConfig {
  /** The nominal limits of all levels, summed (what borrowing shares out). */
  nominalSum: number;
  /** Schemas whose priority level exists, by matchingPrecedence then name: the first that matches wins. */
  schemas: ClassifiedSchema[];
  levels: Map<string, PriorityLevel>;
  /** The schema of requests no schema matches (kube's catch-all). */
  fallback: ClassifiedSchema;
}

/**
 * Builds the configuration the gate runs from FlowSchemas and PriorityLevelConfigurations (kube's APF config
 * controller): each Limited level gets ceil(serverConcurrency × its nominalConcurrencyShares / all shares) seats;
 * levels that existed before keep their queues and the requests in them. `serverConcurrency` is
 * `--max-requests-inflight` plus `--max-mutating-requests-inflight` (0: no limit).
 */
export function buildConfig(
  flowSchemas: readonly FlowSchema[],
  priorityLevels: readonly PriorityLevelConfiguration[],
  serverConcurrency: number,
  previous?: FlowConfig,
): FlowConfig {
  const shareSum = priorityLevels.reduce((sum, pl) => sum + shares(pl), 0);
  const unlimited = serverConcurrency <= 0;
  const levels = new Map<string, PriorityLevel>();
  let nominalSum = 0;
  for (const pl of priorityLevels) {
    const name = pl.metadata?.name ?? '';
    const uid = pl.metadata?.uid ?? '';
    const before = previous?.levels.get(name);
    const load = before?.load ?? { smoothed: 0, executing: 0, demand: new Integrator(), dispatched: 0 };
    const nominalLimit = unlimited ? Number.MAX_SAFE_INTEGER : shareSum > 0 ? Math.ceil((serverConcurrency * shares(pl)) / shareSum) : 0;
    if (!unlimited) nominalSum += nominalLimit;
    // kube: lendable = round(nominal × lendablePercent%), borrowable = round(nominal × borrowingLimitPercent%), or
    // the whole server when there is no borrowing limit.
    const limits = pl.spec?.type === 'Exempt' ? pl.spec.exempt : pl.spec?.limited;
    const lendable = Math.round((nominalLimit * (limits?.lendablePercent ?? 0)) / 100);
    const borrowingPercent = pl.spec?.limited?.borrowingLimitPercent;
    const borrowable = borrowingPercent === undefined ? serverConcurrency : Math.round((nominalLimit * borrowingPercent) / 100);
    const bounds = { nominalLimit, minLimit: nominalLimit - lendable, maxLimit: nominalLimit + borrowable, load };
    if (pl.spec?.type === 'Exempt' || !pl.spec?.limited) {
      levels.set(name, { name, uid, exempt: true, maxSeats: MAXIMUM_SEATS, ...bounds });
      continue;
    }
    const queuing = pl.spec.limited.limitResponse?.type === 'Queue' ? pl.spec.limited.limitResponse.queuing : undefined;
    const kept = before?.queueSet;
    // A new level starts halfway into what it may lend (kube's initial limit); a kept one keeps its limit, in bounds.
    const current = unlimited
      ? nominalLimit
      : kept
        ? Math.max(bounds.minLimit, Math.min(bounds.maxLimit, kept.concurrencyLimit))
        : nominalLimit - Math.floor(lendable / 2);
    const config: QueueSetConfig = {
      concurrencyLimit: current,
      queues: queuing ? queuing.queues || 64 : 0,
      handSize: queuing ? queuing.handSize || 8 : 0,
      queueLengthLimit: queuing ? queuing.queueLengthLimit || 50 : 0,
    };
    const maxSeats = queuing
      ? Math.max(1, Math.min(Math.ceil(nominalLimit * MAX_SEATS_SHARE), Math.floor(nominalLimit / config.handSize), MAXIMUM_SEATS))
      : MAXIMUM_SEATS;
    kept?.configure(config);
    levels.set(name, { name, uid, exempt: false, queueSet: kept ?? new QueueSet(config), maxSeats, ...bounds });
  }
  const schemas = flowSchemas
    .filter((fs) => levels.has(fs.spec?.priorityLevelConfiguration?.name ?? ''))
    .sort((a, b) => (a.spec?.matchingPrecedence ?? 1000) - (b.spec?.matchingPrecedence ?? 1000) || compareNames(a.metadata?.name, b.metadata?.name))
    .map((fs) => classified(fs, levels.get(fs.spec!.priorityLevelConfiguration.name)!, previous));
  const catchAll = schemas.find((s) => s.name === 'catch-all');
  return { nominalSum, schemas, levels, fallback: catchAll ?? schemas[schemas.length - 1] ?? unclassified() };
}

/** The first schema that matches the request (kube's classification), or the fallback. */
export function classify(config: FlowConfig, request: AuthorizationAttributes): ClassifiedSchema {
  const schemas = config.schemas;
  for (let i = 0; i < schemas.length; i++) if (schemas[i].matches(request)) return schemas[i];
  return config.fallback;
}

/** The flow distinguisher of a request in a schema: its user, its namespace, or none. */
export function distinguisherOf(schema: ClassifiedSchema, request: AuthorizationAttributes): string {
  return schema.distinguisher === 'ByUser' ? request.user.username : schema.distinguisher === 'ByNamespace' ? request.namespace : '';
}

function classified(fs: FlowSchema, level: PriorityLevel, previous: FlowConfig | undefined): ClassifiedSchema {
  const name = fs.metadata?.name ?? '';
  const uid = fs.metadata?.uid;
  const type = fs.spec?.distinguisherMethod?.type;
  // Requests still waiting or running are counted on, and uncounted, in the same place.
  const counts = previous?.schemas.find((s) => s.name === name)?.counts ?? { waiting: 0, waitingSeats: 0, executing: 0, executingSeats: 0 };
  return {
    schema: fs,
    matches: compileFlowSchema(fs),
    name,
    level,
    distinguisher: type === 'ByUser' || type === 'ByNamespace' ? type : '',
    headers: uid && level.uid ? Object.freeze({ [FLOW_SCHEMA_UID_HEADER]: uid, [PRIORITY_LEVEL_UID_HEADER]: level.uid }) : undefined,
    counts,
  };
}

const shares = (pl: PriorityLevelConfiguration) =>
  (pl.spec?.type === 'Exempt' ? pl.spec.exempt?.nominalConcurrencyShares : pl.spec?.limited?.nominalConcurrencyShares) ?? 0;

/** Names in byte order (Go's sort.Strings, for ASCII names). */
export const compareNames = (a = '', b = '') => (a < b ? -1 : a > b ? 1 : 0);

/** What runs before any configuration exists: nothing limited. */
function unclassified(): ClassifiedSchema {
  const load = { smoothed: 0, executing: 0, demand: new Integrator(), dispatched: 0 };
  const level: PriorityLevel = { name: '', uid: '', exempt: true, maxSeats: MAXIMUM_SEATS, nominalLimit: 0, minLimit: 0, maxLimit: 0, load };
  return { schema: { metadata: {}, spec: { priorityLevelConfiguration: { name: '' } } } as FlowSchema, matches: () => true, name: '', level, distinguisher: '', counts: { waiting: 0, waitingSeats: 0, executing: 0, executingSeats: 0 } };
}
