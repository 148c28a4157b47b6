// Scenario 10 in a fresh process (forked by scenario-testing.mjs): how long `await import('@kapi/testing')` takes,
// then the first startTestServer() (HTTPS on a free port, CA, certificates and kubeconfig written), `starts` more
// of them and `starts` with `listen: false` (in-process only), each stopped again; RSS while the first server runs
// and after it stopped, and how long the first Pod written to the first server takes (its validators compiled or
// loaded from the cache). Reports one {type: 'result'} message.
import { existsSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

const { starts } = await new Promise((resolve) => process.once('message', resolve));
const rss = () => process.memoryUsage().rss;
const gcRss = () => {
  globalThis.gc?.();
  return rss();
};
const timed = async (fn) => {
  const t0 = performance.now();
  const value = await fn();
  return [performance.now() - t0, value];
};

const rssBefore = rss();
const [importMs, { startTestServer }] = await timed(() => import('@kapi/testing'));

/** One server: started, checked with one request (not timed), stopped. */
async function once(options, onRunning) {
  const [startMs, server] = await timed(() => startTestServer(options));
  if (options?.listen !== false && !existsSync(server.kubeconfig)) throw new Error('startTestServer() wrote no kubeconfig');
  const res = await server.fetch('/api/v1/namespaces/default');
  if (res.status !== 200) throw new Error(`GET namespace default: ${res.status}`);
  await onRunning?.(server);
  const [stopMs] = await timed(() => server.stop());
  return { startMs, stopMs };
}

/** The first Pod this process writes: its validators are compiled, or loaded from the cache. */
async function firstPod(server) {
  const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'first' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };
  const [ms, res] = await timed(() => server.fetch('/api/v1/namespaces/default/pods', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(pod) }));
  if (res.status !== 201) throw new Error(`POST pod: ${res.status}`);
  return ms;
}

const first = {};
Object.assign(first, await once({}, async (server) => Object.assign(first, { rssRunning: rss(), rssRunningAfterGc: gcRss(), firstPodMs: await firstPod(server) })));
first.rssAfterStop = gcRss();
const https = [];
for (let i = 0; i < starts; i++) https.push(await once());
const inProcess = [];
for (let i = 0; i < starts; i++) inProcess.push(await once({ listen: false }));
process.send({ type: 'result', result: { rssBefore, importMs, first, https, inProcess, rssAtEnd: gcRss() } }, () => process.exit(0));
