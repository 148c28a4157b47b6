import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpProbe } from './http-probe.js';
import { closedPort, selfSignedCert } from './test-servers.js';

const listen = async (server: Server): Promise<string> => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `127.0.0.1:${(server.address() as AddressInfo).port}`;
};

const OPTIONS = { timeoutMs: 5_000, userAgent: 'kube-probe/1.33' };

describe('httpProbe (kube pkg/probe/http as componentstatus runs it)', () => {
  const seen: { path: string; userAgent?: string; accept?: string }[] = [];
  let https: Server;
  let http: Server;
  let httpsAt = '';
  let httpAt = '';
  const routes = (req: IncomingMessage, res: ServerResponse) => {
    seen.push({ path: req.url ?? '', userAgent: req.headers['user-agent'], accept: req.headers.accept });
    if (req.url === '/healthz') return res.end('ok');
    if (req.url === '/broken') return res.writeHead(500).end('the body is not shown');
    if (req.url === '/moved') return res.writeHead(302, { location: '/healthz' }).end();
    if (req.url === '/loop') return res.writeHead(302, { location: '/loop' }).end();
    if (req.url === '/big') return res.end('x'.repeat(20_000));
    if (req.url === '/slow') return; // never answers
    res.writeHead(404).end();
  };

  beforeAll(async () => {
    https = createHttpsServer(selfSignedCert(), routes);
    http = createHttpServer(routes);
    httpsAt = await listen(https);
    httpAt = await listen(http);
  });
  afterAll(() => {
    https.closeAllConnections();
    http.closeAllConnections();
    https.close();
    http.close();
  });

  it('is a Success with the body as message on 2xx, over TLS without verifying the certificate', async () => {
    seen.length = 0;
    expect(await httpProbe(`https://${httpsAt}/healthz`, OPTIONS)).toEqual({ result: 'Success', message: 'ok', error: '' });
    expect(seen).toEqual([{ path: '/healthz', userAgent: 'kube-probe/1.33', accept: '*/*' }]);
    expect(await httpProbe(`http://${httpAt}/healthz`, OPTIONS)).toEqual({ result: 'Success', message: 'ok', error: '' });
  });

  it('is a Failure with the status code, never the body, on 4xx and 5xx', async () => {
    expect(await httpProbe(`https://${httpsAt}/broken`, OPTIONS)).toEqual({ result: 'Failure', message: 'HTTP probe failed with statuscode: 500', error: '' });
    expect(await httpProbe(`https://${httpsAt}/nothing`, OPTIONS)).toEqual({ result: 'Failure', message: 'HTTP probe failed with statuscode: 404', error: '' });
  });

  it('follows redirects, up to ten', async () => {
    expect(await httpProbe(`https://${httpsAt}/moved`, OPTIONS)).toEqual({ result: 'Success', message: 'ok', error: '' });
    expect(await httpProbe(`http://${httpAt}/loop`, OPTIONS)).toEqual({ result: 'Failure', message: `Get "http://${httpAt}/loop": stopped after 10 redirects`, error: '' });
  });

  it('reads at most 10 KiB of a body', async () => {
    const outcome = await httpProbe(`http://${httpAt}/big`, OPTIONS);
    expect(outcome.result).toBe('Success');
    expect(outcome.message).toBe('x'.repeat(10 * 1024));
  });

  it("reports a component that is down as kube does, with Go's error text", async () => {
    const port = await closedPort();
    expect(await httpProbe(`https://127.0.0.1:${port}/healthz`, OPTIONS)).toEqual({
      result: 'Failure',
      message: `Get "https://127.0.0.1:${port}/healthz": dial tcp 127.0.0.1:${port}: connect: connection refused`,
      error: '',
    });
  });

  it('gives up after its time limit', async () => {
    expect(await httpProbe(`http://${httpAt}/slow`, { ...OPTIONS, timeoutMs: 200 })).toEqual({
      result: 'Failure',
      message: `Get "http://${httpAt}/slow": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`,
      error: '',
    });
  });

  it('says an HTTPS probe of a plain HTTP server got an HTTP answer', async () => {
    const outcome = await httpProbe(`https://${httpAt}/healthz`, OPTIONS);
    expect(outcome).toEqual({ result: 'Failure', message: `Get "https://${httpAt}/healthz": http: server gave HTTP response to HTTPS client`, error: '' });
  });
});
