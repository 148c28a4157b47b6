// The issue-16 selector attack: four concurrent unpaged LISTs of one namespace of N ConfigMaps, each with a
// labelSelector of 1,500 terms, while one client checks `/healthz` back to back; prints the health checks'
// latencies and how long the lists took. Against a running kapi-server on a plain-HTTP port:
//
//   node apps/server/dist/main.js --storage-backend=memory --data-dir /tmp/sel --secure-port 0 --insecure-port 19183 --authorization-mode=AlwaysAllow &
//   node bench/src/selector-attack.mjs http://127.0.0.1:19183 50000
import { Pool } from 'undici';

const [origin = 'http://127.0.0.1:19183', countText = '50000'] = process.argv.slice(2);
const count = Number(countText);
const ns = 'selector-attack';
const pool = new Pool(origin, { connections: 32 });
const send = async (method, path, body) => {
  const res = await pool.request({ method, path, headers: { 'content-type': 'application/json' }, body: body && JSON.stringify(body) });
  await res.body.dump();
  return res.statusCode;
};
await send('POST', '/api/v1/namespaces', { metadata: { name: ns } });
let next = 0;
await Promise.all(
  Array.from({ length: 32 }, async () => {
    for (let i = next++; i < count; i = next++) {
      const status = await send('POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: `cm-${i}`, labels: { app: `a${i % 100}`, tier: `t${i % 7}` } }, data: { k: 'v'.repeat(1000) } });
      if (status !== 201) throw new Error(`create: ${status}`);
    }
  }),
);
// 1,500 terms: `app in (...)` with 1,497 values (none of them used), and three more requirements.
const values = Array.from({ length: 1497 }, (_, i) => `x${i}`).join(',');
const selector = encodeURIComponent(`app in (${values}),tier!=t9,!missing,app notin (z1,z2)`);
const health = new Pool(origin, { connections: 1 });
const latencies = [];
let listing = true;
const checks = (async () => {
  while (listing) {
    const t0 = performance.now();
    const res = await health.request({ method: 'GET', path: '/healthz' });
    await res.body.dump();
    latencies.push(performance.now() - t0);
  }
})();
const t0 = performance.now();
const statuses = await Promise.all(
  Array.from({ length: 4 }, async () => {
    const res = await pool.request({ method: 'GET', path: `/api/v1/namespaces/${ns}/configmaps?labelSelector=${selector}` });
    await res.body.dump();
    return res.statusCode;
  }),
);
const listSeconds = (performance.now() - t0) / 1000;
listing = false;
await checks;
latencies.sort((a, b) => a - b);
const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))].toFixed(1);
console.log(JSON.stringify({ objects: count, lists: statuses, listSeconds: listSeconds.toFixed(2), healthChecks: latencies.length, p50ms: at(0.5), p99ms: at(0.99), maxMs: latencies[latencies.length - 1].toFixed(1) }));
await pool.close();
await health.close();
