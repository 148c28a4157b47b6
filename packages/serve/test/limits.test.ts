import { mkdtempSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:tls';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type FetchEnv, type RunningServer, type ServedApi } from '../src/serve.js';
import { ensureClientCertificates, ensureSelfSignedCertificates, type GeneratedCertificates } from '../src/tls.js';

let tls: GeneratedCertificates;
let client: Awaited<ReturnType<typeof ensureClientCertificates>>;
let stranger: Awaited<ReturnType<typeof ensureClientCertificates>>;
const running: RunningServer[] = [];
const seen: (FetchEnv | undefined)[] = [];

beforeAll(async () => {
  tls = await ensureSelfSignedCertificates({ dataDir: mkdtempSync(join(tmpdir(), 'kapi-limits-')), bindAddress: '127.0.0.1' });
  client = await ensureClientCertificates({ dataDir: mkdtempSync(join(tmpdir(), 'kapi-limits-client-')) });
  stranger = await ensureClientCertificates({ dataDir: mkdtempSync(join(tmpdir(), 'kapi-limits-other-')) });
});
afterEach(async () => {
  seen.length = 0;
  for (const s of running.splice(0)) await s.close();
});

const api: ServedApi = {
  start: async () => {},
  stop: async () => {},
  fetch: (_req, env) => {
    seen.push(env);
    return new Response('ok');
  },
};

async function serve(insecure = false) {
  const server = await startServer({
    apiServer: api, bindAddress: '127.0.0.1', securePort: insecure ? 0 : 'ephemeral', insecurePort: insecure ? 'ephemeral' : undefined,
    tls: { ...tls, clientCa: client.ca }, log: () => {},
  });
  running.push(server);
  return server;
}

function send(url: string, headers: Record<string, string>, cert?: { cert: string; key: string }): Promise<{ status: number; type?: string; body: string }> {
  const go = url.startsWith('https:') ? request : httpRequest;
  return new Promise((resolve, reject) => {
    const req = go(url, { headers, ca: tls.ca, ...(cert ?? {}) }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, type: res.headers['content-type'], body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('request line and header limits (kube: 1 MiB)', () => {
  it('accepts headers far beyond Node\'s 16 KiB default, and answers a larger set with 431 and a Status', async () => {
    const server = await serve(true);
    expect((await send(`${server.url}/readyz`, { 'x-big': 'a'.repeat(200_000) })).status).toBe(200);
    const tooBig = await send(`${server.url}/readyz`, { 'x-big': 'a'.repeat(1_100_000) });
    expect(tooBig.status).toBe(431);
    expect(tooBig.type).toBe('application/json');
    expect(JSON.parse(tooBig.body)).toEqual({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'RequestHeaderFieldsTooLarge', code: 431,
      message: 'request headers are larger than 1048576 bytes',
    });
  });
});

describe('TLS', () => {
  const handshake = (port: number, options: { maxVersion?: 'TLSv1.2' | 'TLSv1.3'; ciphers?: string }) =>
    new Promise<string>((resolve, reject) => {
      const socket = connect({ host: '127.0.0.1', port, ca: tls.ca, servername: 'localhost', ...options }, () => {
        const cipher = socket.getCipher().name;
        socket.end();
        resolve(cipher);
      });
      socket.on('error', reject);
    });

  it('offers Go\'s TLS 1.2 suites (ECDHE with AES-GCM or ChaCha20) and no CBC ones; TLS 1.3 works', async () => {
    const server = await serve();
    const port = Number(new URL(server.url).port);
    // Whichever key type the serving certificate has (the generated one is ECDSA), an ECDHE AEAD suite is agreed.
    const either = (suite: string) => `ECDHE-ECDSA-${suite}:ECDHE-RSA-${suite}`;
    expect(await handshake(port, { maxVersion: 'TLSv1.2', ciphers: either('AES128-GCM-SHA256') })).toMatch(/^ECDHE-(ECDSA|RSA)-AES128-GCM-SHA256$/);
    expect(await handshake(port, { maxVersion: 'TLSv1.2', ciphers: either('AES256-GCM-SHA384') })).toMatch(/^ECDHE-(ECDSA|RSA)-AES256-GCM-SHA384$/);
    expect(await handshake(port, { maxVersion: 'TLSv1.2', ciphers: either('CHACHA20-POLY1305') })).toMatch(/^ECDHE-(ECDSA|RSA)-CHACHA20-POLY1305$/);
    for (const cbc of [either('AES128-SHA'), either('AES256-SHA384'), either('AES128-SHA256'), 'AES128-SHA256', 'AES128-GCM-SHA256', 'ECDHE-ECDSA-AES128-CCM']) {
      await expect(handshake(port, { maxVersion: 'TLSv1.2', ciphers: cbc }), cbc).rejects.toThrow();
    }
    expect(await handshake(port, {})).toMatch(/^TLS_/);
  });

  it('passes a verified client certificate on, and says why an untrusted one did not verify', async () => {
    const server = await serve();
    await send(`${server.url}/readyz`, {}, client.admin);
    expect(seen.at(-1)?.peerCertificate?.subject).toMatchObject({ CN: 'kapi-admin', O: 'system:masters' });
    await send(`${server.url}/readyz`, {}, stranger.admin);
    expect(seen.at(-1)?.peerCertificate).toBeUndefined();
    expect(seen.at(-1)?.peerCertificateError).toBeTruthy();
    await send(`${server.url}/readyz`, {});
    expect(seen.at(-1)?.peerCertificate).toBeUndefined();
    expect(seen.at(-1)?.peerCertificateError).toBeUndefined();
  });
});
