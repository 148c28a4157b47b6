// Counts, concurrency and names: the quick and full profiles and the fixed shape of every scenario.

export const PROFILES = {
  quick: {
    create: 2_000, write: 2_000, warmup: 8_000, stored: 10_000, list: 5_000, listReps: 3, getSeconds: 3, mediaSeconds: 2, mediaObjects: 500,
    watchers: [100, 1_000], rates: [100, 1_000], watchSeconds: 3, watchDrainSeconds: 3, codecSeconds: 0.3, deadlineMinutes: 20,
    informerObjects: 2_000, informerUpdates: 1_000, testingStarts: 5,
  },
  full: {
    create: 10_000, write: 10_000, warmup: 8_000, stored: 100_000, list: 50_000, listReps: 3, getSeconds: 10, mediaSeconds: 5, mediaObjects: 500,
    watchers: [100, 1_000], rates: [100, 1_000], watchSeconds: 10, watchDrainSeconds: 10, codecSeconds: 1, deadlineMinutes: 90,
    informerObjects: 10_000, informerUpdates: 5_000, testingStarts: 5,
  },
};
export const CREATE_CONCURRENCY = 32;
export const GET_CONNECTIONS = 64;
export const MEDIA_LIST_CONNECTIONS = 8;
export const PAGE = 500;
/** Unpaged and paged LISTs back to back on one connection, per repeat of scenario 3. */
export const LISTS_PER_REP = 5;
export const SCENARIOS = { create: '1', get: '2', list: '3', watch: '4', memory: '5', media: '6', write: '7', scale: '8', informer: '9', 'testing-start': '10' };
export const BACKENDS = ['memory', 'sqlite', 'etcd3'];
export const MEDIA = {
  JSON: 'application/json',
  YAML: 'application/yaml',
  Protobuf: 'application/vnd.kubernetes.protobuf',
  CBOR: 'application/cbor',
};
