// The load driver: a child process (forked by run.mjs) that runs one task and reports it over IPC. It sends
// {type: 'start'} when the measured part begins (the parent then snapshots the server's CPU and memory) and
// {type: 'result'} at once when it ends. Every loop is bounded by a count and by a time limit.
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import { configMapData, configMapTemplate, storedConfigMap } from './objects.mjs';
import { Histogram } from './stats.mjs';

const tasks = { http: httpTask, watch: watchTask, etcdPuts: etcdPutsTask, codecs: codecsTask };

process.once('message', async (task) => {
  try {
    const result = await tasks[task.kind](task);
    process.send({ type: 'result', result }, () => process.exit(0));
  } catch (error) {
    process.send({ type: 'error', message: error?.stack ?? String(error) }, () => process.exit(1));
  }
});

const markStart = () => process.send({ type: 'start' });
const cpuNow = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};

async function drain(body) {
  let bytes = 0;
  for await (const chunk of body) bytes += chunk.length;
  return bytes;
}

/**
 * Closed-loop HTTP load over keep-alive connections: `concurrency` requests in flight on `connections`
 * sockets until `maxOps` are done or `maxSeconds` pass. With `create`, each request is a POST of a new
 * ConfigMap named `<prefix><index>`; with `write`, each request is one `write.op` (update, patch, apply, delete)
 * of the existing ConfigMap `<prefix><index>`; with `pages`, each operation walks a list with `limit` and
 * `continue`. With `origins` (several servers), the connections are split between them and each in-flight loop
 * stays on one server: client-side spreading, as a client of several kapi-server processes must do.
 */
async function httpTask(t) {
  const origins = t.origins ?? [t.origin];
  const perOrigin = Math.max(1, Math.ceil(t.connections / origins.length));
  const pools = origins.map((o) => new Pool(o, { connections: perOrigin, pipelining: 1, keepAliveTimeout: 60_000, bodyTimeout: 120_000, headersTimeout: 120_000 }));
  const concurrency = t.concurrency ?? t.connections;
  const headers = { accept: 'application/json', ...t.headers };
  const template = t.create ? configMapTemplate(t.create.namespace, t.create.dataBytes) : undefined;
  if (template) headers['content-type'] = 'application/json';
  const write = t.write ? writeRequest(t.write) : undefined;
  if (write?.contentType) headers['content-type'] = write.contentType;
  const latency = new Histogram();
  let errors = 0;
  let firstError;
  let bytesIn = 0;
  let next = 0;
  let first = 0; // the first index of the measured part: warm-up creates use names of their own
  let done = 0;

  const once = async (index, pool) => {
    let path = t.path;
    let body = t.body;
    let method = t.method;
    if (template) body = template.head + t.create.prefix + String(t.create.start + index) + template.tail;
    if (write) ({ path, body, method } = write.request(t.write.start + index));
    let pages = 0;
    for (;;) {
      const res = await pool.request({ path, method: method ?? (body ? 'POST' : 'GET'), headers, body });
      if (res.statusCode >= 300) {
        const text = (await res.body.text()).slice(0, 300);
        throw new Error(`${res.statusCode} ${text}`);
      }
      if (!t.pages) {
        bytesIn += await drain(res.body);
        return;
      }
      // A paged list: read the page, then follow its continue token (bounded by maxPages).
      const buf = Buffer.from(await res.body.arrayBuffer());
      bytesIn += buf.length;
      const token = continueToken(buf);
      if (!token || ++pages >= t.pages.maxPages) return;
      path = `${t.path}${t.path.includes('?') ? '&' : '?'}continue=${encodeURIComponent(token)}`;
    }
  };

  const loop = async (pool, deadline, record) => {
    while (next - first < t.maxOps && performance.now() < deadline && errors <= (t.maxErrors ?? 50)) {
      const index = next++;
      const t0 = performance.now();
      try {
        await once(index, pool);
        if (record) {
          latency.record(performance.now() - t0);
          done++;
        }
      } catch (error) {
        errors++;
        firstError ??= String(error?.message ?? error);
      }
    }
  };

  if (t.warmupSeconds) {
    const until = performance.now() + t.warmupSeconds * 1000;
    await Promise.all(Array.from({ length: concurrency }, (_, i) => loop(pools[i % pools.length], until, false)));
    first = next;
    errors = 0;
    firstError = undefined;
    bytesIn = 0;
  }
  markStart();
  const cpu0 = cpuNow();
  const t0 = performance.now();
  await Promise.all(Array.from({ length: concurrency }, (_, i) => loop(pools[i % pools.length], t0 + t.maxSeconds * 1000, true)));
  const seconds = (performance.now() - t0) / 1000;
  const result = { ops: done, errors, firstError, seconds, opsPerSec: done / seconds, bytesIn, latency: latency.summary(), driverCpuSeconds: cpuNow() - cpu0 };
  await Promise.all(pools.map((p) => p.destroy()));
  return result;
}

/**
 * The requests of scenario 7 on ConfigMap `<prefix><k>` of `namespace`: an unconditional PUT of the whole object
 * with one data value changed (no resourceVersion: kube accepts that for ConfigMaps), a JSON merge patch of one
 * value (a new `tag` makes another round of patches change the objects again), a server-side apply of the whole
 * object (JSON is YAML) by field manager "bench" with force, or a DELETE.
 */
function writeRequest({ op, namespace, prefix, dataBytes, tag = '' }) {
  const base = `/api/v1/namespaces/${namespace}/configmaps/`;
  const data = configMapData(dataBytes); // made once: the driver's own CPU shares the cores with the server
  const changed = (name) => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace }, data: { ...data, 'key-00': `${op}-${name}` } });
  switch (op) {
    case 'update':
      return { contentType: 'application/json', request: (k) => ({ method: 'PUT', path: base + prefix + k, body: changed(prefix + k) }) };
    case 'patch':
      return { contentType: 'application/merge-patch+json', request: (k) => ({ method: 'PATCH', path: base + prefix + k, body: `{"data":{"key-01":"patched-${tag}${k}"}}` }) };
    case 'apply':
      return {
        contentType: 'application/apply-patch+yaml',
        request: (k) => ({ method: 'PATCH', path: `${base}${prefix}${k}?fieldManager=bench&force=true`, body: changed(prefix + k) }),
      };
    case 'delete':
      return { request: (k) => ({ method: 'DELETE', path: base + prefix + k }) };
    default:
      throw new Error(`unknown write op ${op}`);
  }
}

/** The list's continue token, read from the metadata that precedes the items in kube's JSON lists. */
function continueToken(buf) {
  const at = buf.indexOf('"items":');
  const head = buf.subarray(0, at < 0 ? Math.min(buf.length, 4096) : at).toString();
  return /"continue":"([^"]*)"/.exec(head)?.[1];
}

/**
 * Watch fan-out: `watchers` watches of one namespace's ConfigMaps (JSON lines), then ConfigMaps created there
 * at `rate` per second for `seconds`. For every event received, the lag from the create's response to the
 * event's arrival (both clocks are this process's). Afterwards, waits at most `drainSeconds` for the rest.
 */
async function watchTask(t) {
  const { origin, namespace, watchers, rate, seconds, prefix } = t;
  const total = Math.max(1, Math.round(rate * seconds));
  const sentAt = new Float64Array(total).fill(NaN);
  const responseAt = new Float64Array(total).fill(NaN);
  const lag = new Histogram();
  const lagFromRequest = new Histogram();
  const writeLatency = new Histogram();
  let delivered = 0;
  let early = 0;
  let errorEvents = 0;
  let firstError;

  const probe = await fetch(`${origin}/api/v1/namespaces/${namespace}/configmaps?limit=1`);
  if (!probe.ok) throw new Error(`list ${namespace}: ${probe.status} ${await probe.text()}`);
  const rv = (await probe.json()).metadata.resourceVersion;

  const needle = Buffer.from(`"name":"${prefix}`);
  const errorHead = Buffer.from('{"type":"ERROR"');
  const onLine = (buf, start, end, now) => {
    if (buf.compare(errorHead, 0, errorHead.length, start, start + errorHead.length) === 0) {
      errorEvents++;
      firstError ??= buf.subarray(start, Math.min(end, start + 300)).toString();
      return;
    }
    const at = buf.indexOf(needle, start);
    if (at < 0 || at > end) return;
    let index = 0;
    for (let i = at + needle.length; i < end; i++) {
      const c = buf[i];
      if (c < 48 || c > 57) break;
      index = index * 10 + (c - 48);
    }
    delivered++;
    lagFromRequest.record(now - sentAt[index]);
    const answered = responseAt[index];
    if (Number.isNaN(answered)) {
      // Delivered before the writer saw its response: no lag to speak of.
      early++;
      lag.record(0);
    } else lag.record(now - answered);
  };

  const watchPool = new Pool(origin, { connections: watchers, pipelining: 1, bodyTimeout: 0, headersTimeout: 60_000 });
  let connected = 0;
  let closing = false;
  const watchPath = `/api/v1/namespaces/${namespace}/configmaps?watch=1&resourceVersion=${rv}&timeoutSeconds=${Math.ceil(seconds + t.drainSeconds + 120)}`;
  const streams = Array.from({ length: watchers }, async () => {
    const res = await watchPool.request({ path: watchPath, method: 'GET', headers: { accept: 'application/json' } });
    if (res.statusCode !== 200) throw new Error(`watch: ${res.statusCode} ${await res.body.text()}`);
    connected++;
    let rest;
    for await (const chunk of res.body) {
      const now = performance.now();
      const buf = rest ? Buffer.concat([rest, chunk]) : chunk;
      let start = 0;
      let nl;
      while ((nl = buf.indexOf(10, start)) !== -1) {
        onLine(buf, start, nl, now);
        start = nl + 1;
      }
      rest = start < buf.length ? buf.subarray(start) : undefined;
    }
  });
  const watchFailures = [];
  streams.forEach((s) =>
    s.catch((error) => {
      if (!closing) watchFailures.push(String(error?.message ?? error));
    }),
  );

  const connectDeadline = performance.now() + 60_000;
  while (connected + watchFailures.length < watchers && performance.now() < connectDeadline) await sleep(10);
  if (connected < watchers) {
    closing = true;
    await watchPool.destroy().catch(() => {});
    throw new Error(`only ${connected} of ${watchers} watches connected: ${watchFailures[0] ?? 'timeout'}`);
  }
  await sleep(200);

  // Open-loop writer: create number k is due at k/rate seconds; at most maxInFlight at once.
  const writer = new Pool(origin, { connections: t.writerConnections ?? 16, pipelining: 1 });
  const template = configMapTemplate(namespace);
  // Below kube's default --max-mutating-requests-inflight (200): the writer itself never causes a 429.
  const maxInFlight = t.maxInFlight ?? 128;
  let issued = 0;
  let written = 0;
  let writeErrors = 0;
  let inFlight = 0;
  const write = async (k) => {
    inFlight++;
    const t0 = performance.now();
    sentAt[k] = t0;
    try {
      const res = await writer.request({
        path: `/api/v1/namespaces/${namespace}/configmaps`,
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: template.head + prefix + k + template.tail,
      });
      await res.body.dump();
      if (res.statusCode === 201) {
        const now = performance.now();
        responseAt[k] = now;
        writeLatency.record(now - t0);
        written++;
      } else writeErrors++;
    } catch (error) {
      writeErrors++;
      firstError ??= String(error?.message ?? error);
    } finally {
      inFlight--;
    }
  };

  markStart();
  const cpu0 = cpuNow();
  const t0 = performance.now();
  const writeUntil = t0 + seconds * 1000;
  while (issued < total && performance.now() < writeUntil) {
    const due = Math.min(total, Math.floor(((performance.now() - t0) * rate) / 1000) + 1);
    while (issued < due && inFlight < maxInFlight) write(issued++);
    await sleep(1);
  }
  const writeSeconds = (performance.now() - t0) / 1000;
  const settleUntil = performance.now() + 30_000;
  while (inFlight > 0 && performance.now() < settleUntil) await sleep(5);
  const drainUntil = performance.now() + t.drainSeconds * 1000;
  while (delivered < written * watchers && performance.now() < drainUntil) await sleep(10);
  const elapsed = (performance.now() - t0) / 1000;
  const result = {
    watchers,
    targetRate: rate,
    written,
    writeErrors,
    writeRate: written / writeSeconds,
    writeLatency: writeLatency.summary(),
    expected: written * watchers,
    delivered,
    early,
    errorEvents,
    firstError: firstError ?? watchFailures[0],
    seconds: elapsed,
    deliveredPerSec: delivered / elapsed,
    lag: lag.summary(),
    lagFromRequest: lagFromRequest.summary(),
    driverCpuSeconds: cpuNow() - cpu0,
  };
  closing = true;
  await Promise.allSettled([watchPool.destroy(), writer.destroy()]);
  return result;
}

/** B4: creates straight into etcd through Kapi's own etcd client library, `concurrency` at a time. */
async function etcdPutsTask(t) {
  const { createEtcdBackend } = await import('@kapi/storage-etcd');
  const backend = createEtcdBackend({ endpoints: [t.endpoint], prefix: t.prefix });
  const value = Buffer.from(JSON.stringify(storedConfigMap('bench', 'cm-000000')));
  for (let k = 0; k < (t.warmupOps ?? 0); k += t.concurrency) {
    await Promise.all(Array.from({ length: t.concurrency }, (_, i) => backend.create(`/registry/configmaps/warmup/${k + i}`, value)));
  }
  const latency = new Histogram();
  let next = 0;
  let errors = 0;
  let firstError;
  markStart();
  const cpu0 = cpuNow();
  const t0 = performance.now();
  const deadline = t0 + t.maxSeconds * 1000;
  await Promise.all(
    Array.from({ length: t.concurrency }, async () => {
      while (next < t.maxOps && performance.now() < deadline && errors <= 50) {
        const k = next++;
        const s = performance.now();
        try {
          await backend.create(`/registry/configmaps/bench/b4-${k}`, value);
          latency.record(performance.now() - s);
        } catch (error) {
          errors++;
          firstError ??= String(error?.message ?? error);
        }
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const result = { ops: latency.count, errors, firstError, seconds, opsPerSec: latency.count / seconds, valueBytes: value.length, latency: latency.summary(), driverCpuSeconds: cpuNow() - cpu0 };
  await backend.close();
  return result;
}

/** B3: the codecs' own speed on the scenarios' objects, in this process. */
async function codecsTask(t) {
  const { measureCodecs } = await import('./codecs.mjs');
  markStart();
  return measureCodecs(t);
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
