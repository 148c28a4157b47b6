// B1 and B2: a bare node:http server. GET answers a fixed 1 KiB JSON body (B1); POST echoes its body (B2).
// Usage: node baseline-server.mjs PORT. Prints "listening PORT" once it accepts connections.
import { createServer } from 'node:http';
import { fixedJson } from './objects.mjs';

const body = fixedJson(1024);
const server = createServer((req, res) => {
  if (req.method === 'POST') {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const echo = Buffer.concat(chunks);
      res.writeHead(201, { 'content-type': 'application/json', 'content-length': echo.length });
      res.end(echo);
    });
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
  res.end(body);
});
server.keepAliveTimeout = 60_000;
server.listen(Number(process.argv[2]), '127.0.0.1', () => console.log(`listening ${server.address().port}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
