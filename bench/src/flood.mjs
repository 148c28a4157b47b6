// The issue-16 flood: 20 clients merge-patch 20 ConfigMaps with 1 MB values against a running kapi-server on a
// plain-HTTP port, for N seconds; prints the updates done and, every 15 s, the server's RSS and data-dir size.
//
//   node apps/server/dist/main.js --data-dir /tmp/flood --secure-port 0 --insecure-port 19181 --authorization-mode=AlwaysAllow &
//   node bench/src/flood.mjs http://127.0.0.1:19181 90 /tmp/flood
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const [origin = 'http://127.0.0.1:19181', secondsText = '90', dataDir] = process.argv.slice(2);
const base = `${origin}/api/v1/namespaces/default/configmaps`;
const big = 'x'.repeat(1_000_000);
const pid = execFileSync('sh', ['-c', `pgrep -f "insecure-port ${new URL(origin).port}" | head -1`], { encoding: 'utf8' }).trim();
const rssMB = () => Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024);
const dirMB = () => (dataDir ? execFileSync('du', ['-sm', dataDir], { encoding: 'utf8' }).split('\t')[0] : '?');

for (let i = 0; i < 20; i++) {
  await fetch(base, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ metadata: { name: `flood-${i}` }, data: { v: '' } }) });
}
const until = Date.now() + Number(secondsText) * 1000;
const counts = { updates: 0, tooMany: 0, errors: 0 };
const report = setInterval(() => console.log(JSON.stringify({ ...counts, rssMB: rssMB(), dataDirMB: dirMB() })), 15_000);
await Promise.all(
  Array.from({ length: 20 }, async (_, i) => {
    while (Date.now() < until) {
      const res = await fetch(`${base}/flood-${i}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/merge-patch+json' },
        body: JSON.stringify({ data: { v: `${counts.updates}${big}` } }),
      });
      await res.arrayBuffer();
      if (res.status === 200) counts.updates++;
      else if (res.status === 429) counts.tooMany++;
      else counts.errors++;
    }
  }),
);
clearInterval(report);
console.log(JSON.stringify({ ...counts, rssMB: rssMB(), dataDirMB: dirMB() }));
