// Run by kapi-server's build (`node dist/prebuild-validators.js`, after tsup): compiles the validators a first start
// needs ahead of time, into dist/validators/, where createKapiApiServer looks before compiling (usePrebuiltValidators).
// A first start writes its bootstrap objects (namespaces, roles, priority classes, flow schemas, API services...): 16
// kinds whose validators took about 150 ms of its ~1.1 s to compile. To learn which, this does such a start: in this
// process, on the memory backend, with the validator cache on in dist/validators/; whatever it compiled is kept. A
// validator's file is named by the schemas it is made from and ajv's version, so files made from other schemas are
// never used for a changed kind (it is compiled at start, as without them).
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setValidatorCache } from '@kapi/apimachinery';
import { createKapiApiServer } from './apiserver.js';
import { parseFlags } from './flags.js';

const out = fileURLToPath(new URL('./validators/', import.meta.url));
rmSync(out, { recursive: true, force: true });
setValidatorCache(out);
const dataDir = mkdtempSync(join(tmpdir(), 'kapi-prebuild-'));
const count = () => readdirSync(out, { withFileTypes: true }).filter((e) => e.isFile() && e.name.endsWith('.js')).length;
try {
  const commandLine = parseFlags(['--storage-backend=memory', `--data-dir=${dataDir}`]);
  if (commandLine.help) throw new Error('unreachable: no --help given');
  const { config } = commandLine;
  // Placeholders for what the start publishes (kube-root-ca.crt): its kind counts.
  const server = await createKapiApiServer(config, () => {}, { servingCaPem: 'prebuild', frontProxy: { clientCert: '', clientKey: '' } });
  await server.start();
  // The controllers the start set off (the default service accounts, leader election) write on: until nothing new was
  // compiled for a second.
  for (let last = -1, seen = count(); seen !== last; seen = count()) {
    last = seen;
    await new Promise((done) => setTimeout(done, 1000));
  }
  await server.stop();
  process.stdout.write(`prebuilt ${count()} validators in ${out}\n`);
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
