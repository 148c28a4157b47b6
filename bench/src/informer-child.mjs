// One informer in a process of its own (scenario 9), forked by scenario-informer.mjs so that each client's memory
// is its own: @kapi/client's Informer (pages of `pageSize`) or @kubernetes/client-node's makeInformer (a ListWatch,
// which lists in one request: it has no paging), on one namespace's ConfigMaps over HTTPS with the server's admin
// kubeconfig. Reports {type: 'synced'} once all `count` objects are cached, then {type: 'result'} once `updates`
// update events have arrived, timed from the first update event to the last.
import { performance } from 'node:perf_hooks';

const task = await new Promise((resolve) => process.once('message', resolve));
const cpuNow = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};
const onError = (error) => process.stderr.write(`informer (${task.client}): ${error?.stack ?? error}\n`);

let adds = 0;
let updates = 0;
let first;
const resolvers = () => {
  let resolve;
  const promise = new Promise((r) => (resolve = r));
  return { promise, resolve };
};
const synced = resolvers();
const observed = resolvers();
const handlers = {
  add: () => {
    if (++adds === task.count) synced.resolve(performance.now());
  },
  update: () => {
    first ??= { at: performance.now(), cpu: cpuNow() };
    if (++updates === task.updates) observed.resolve(performance.now());
  },
};

// The libraries are loaded before the clock starts: sync time is the informer's, not the import's.
const informer = task.client === 'kapi' ? await kapiInformer() : await clientNodeInformer();
globalThis.gc?.();
const rssLoaded = process.memoryUsage().rss;
const cpu0 = cpuNow();
const t0 = performance.now();
informer.start();
const syncedAt = await synced.promise;
const syncCpu = cpuNow() - cpu0;
const rss = process.memoryUsage().rss;
globalThis.gc?.();
process.send({
  type: 'synced',
  syncMs: syncedAt - t0,
  syncCpu,
  cached: informer.size(),
  rssLoaded,
  rss,
  rssAfterGc: process.memoryUsage().rss,
  peakRss: process.resourceUsage().maxRSS * 1024,
});

const lastAt = await observed.promise;
process.send({ type: 'result', events: updates, seconds: (lastAt - first.at) / 1000, cpuSeconds: cpuNow() - first.cpu }, () => process.exit(0));

async function kapiInformer() {
  const { createClient, Informer, loadKubeconfig } = await import('@kapi/client');
  const { core } = await import('@kapi/api-core/client');
  const client = createClient(loadKubeconfig({ path: task.kubeconfig }), { core });
  const inf = new Informer(client.core.v1.configmaps.namespace(task.namespace), { pageSize: task.pageSize, onError }).on(handlers);
  return { start: () => inf.start(), size: () => inf.store.size };
}

async function clientNodeInformer() {
  const k8s = await import('@kubernetes/client-node');
  const kc = new k8s.KubeConfig();
  kc.loadFromFile(task.kubeconfig);
  const api = kc.makeApiClient(k8s.CoreV1Api);
  const path = `/api/v1/namespaces/${task.namespace}/configmaps`;
  const inf = k8s.makeInformer(kc, path, () => api.listNamespacedConfigMap({ namespace: task.namespace }));
  inf.on('add', handlers.add);
  inf.on('update', handlers.update);
  inf.on('error', onError);
  return { start: () => inf.start().catch(onError), size: () => inf.list().length };
}
