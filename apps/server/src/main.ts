#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { startServer } from './serve.js';

const { values } = parseArgs({
  options: {
    'bind-address': { type: 'string', default: '127.0.0.1' },
    'secure-port': { type: 'string', default: '6443' },
  },
  strict: true,
});

const running = await startServer({ bindAddress: values['bind-address']!, port: Number(values['secure-port']) });
console.log(`kapi-server listening on ${running.url} (try ${running.url}/readyz)`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void running.close().then(() => process.exit(0)));
}
