import { spawn } from 'node:child_process';
import { runDriver, killAll, freePort, tempDir, serverMain } from './src/processes.mjs';
const port = await freePort();
const child = spawn(process.execPath, ['--cpu-prof', '--cpu-prof-dir=/tmp/prof', serverMain, '--secure-port=0', `--insecure-port=${port}`, '--storage-backend=memory', `--data-dir=${tempDir('ab')}`, '--write-kubeconfig='], { stdio: 'ignore' });
const origin = `http://127.0.0.1:${port}`;
for (let i = 0; i < 300; i++) { try { if ((await fetch(origin + '/readyz')).ok) break; } catch {} await new Promise(r => setTimeout(r, 20)); }
await fetch(origin + '/api/v1/namespaces/default/configmaps', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm-0' }, data: { a: 'b' } }) });
const r = await runDriver({ kind: 'http', origin, path: '/api/v1/namespaces/default/configmaps/cm-0', connections: 64, maxOps: 1e7, maxSeconds: 4, warmupSeconds: 1 }, { timeoutMs: 60000 });
console.log(Math.round(r.opsPerSec));
child.kill('SIGINT');
await new Promise(r => child.once('exit', r));
killAll();
