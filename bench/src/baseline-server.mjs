// B1, B2 and B5: a bare node:http server. GET answers a fixed 1 KiB JSON body (B1); POST to `/` echoes its body
// (B2); POST to any other path does the least work a create can do (B5): parse the JSON, stamp metadata.uid,
// creationTimestamp and resourceVersion (a counter), keep the object in a Map by namespace/name (409 on a
// duplicate) and answer it as JSON with 201. B5 is the physical floor for a create; B2 is the floor for a POST.
// Usage: node baseline-server.mjs PORT. Prints "listening PORT" once it accepts connections.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { fixedJson } from './objects.mjs';

const body = fixedJson(1024);
const stored = new Map();
let resourceVersion = 0;

function send(res, status, bytes) {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': bytes.length });
  res.end(bytes);
}

/** B5: what any store must do for a create, and nothing more (no validation, defaulting, admission or storage). */
function minimalCreate(res, raw) {
  let object;
  try {
    object = JSON.parse(raw);
  } catch {
    return send(res, 400, Buffer.from('{"kind":"Status","status":"Failure","reason":"BadRequest"}'));
  }
  const metadata = (object.metadata ??= {});
  const key = `${metadata.namespace ?? ''}/${metadata.name}`;
  if (stored.has(key)) return send(res, 409, Buffer.from('{"kind":"Status","status":"Failure","reason":"AlreadyExists"}'));
  metadata.uid = randomUUID();
  metadata.creationTimestamp = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
  metadata.resourceVersion = String(++resourceVersion);
  stored.set(key, object);
  send(res, 201, Buffer.from(JSON.stringify(object)));
}

const server = createServer((req, res) => {
  if (req.method === 'POST') {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      if (req.url === '/') send(res, 201, raw);
      else minimalCreate(res, raw.toString());
    });
    return;
  }
  send(res, 200, body);
});
server.keepAliveTimeout = 60_000;
server.listen(Number(process.argv[2]), '127.0.0.1', () => console.log(`listening ${server.address().port}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
