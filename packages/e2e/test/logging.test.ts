import { readFileSync } from 'node:fs';
import { connect } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { kubectlBinaries, kubectlOk, kubectlRunner } from '../src/kubectl.js';
import { startServerProcess, type ServerProcess } from '../src/server.js';
import { eventually } from './storage-helpers.js';

const kubectlPath = kubectlBinaries()[0]?.path;

/** The start-up report the binary writes to stdout, in plain text (everything else is the log). */
const STARTUP = /^(generated |kapi-server listening on |WARNING: the insecure port |admin kubeconfig: )/;

describe.skipIf(!kubectlPath)('the server log', () => {
  describe('--logging-format=json -v=3', () => {
    let server: ServerProcess;
    beforeAll(async () => {
      server = await startServerProcess(['--logging-format=json', '-v=3']);
    }, 60_000);
    afterAll(async () => server?.stop());

    it('writes one JSON object per line, with an HTTP line per request carrying its audit ID', async () => {
      const admin = kubectlRunner(kubectlPath!, server.kubeconfig);
      const verbose = admin('get', 'configmaps', '-n', 'kube-system', '-v=8');
      expect(verbose.status).toBe(0);
      // kubectl 1.32 logs `GET https://...`, 1.33 `"Request" verb="GET" url="https://..."`.
      const auditId = /(?:GET |url=")https:[^\s"]+\/api\/v1\/namespaces\/kube-system\/configmaps\?limit=500[\s\S]*?Audit-Id: ([0-9a-f-]{36})/.exec(verbose.stderr)?.[1];
      expect(auditId).toBeDefined();
      kubectlOk(admin, 'get', 'namespaces');

      // kubectl ran synchronously: the server's output is read once the test's event loop has taken it in.
      const parsed = () => server.output().split('\n').filter((l) => l !== '' && !STARTUP.test(l)).map((line) => JSON.parse(line) as Record<string, unknown>);
      const entries = await eventually(async () => (parsed().some((e) => e['audit-ID'] === auditId) ? parsed() : undefined), 50, 100);
      for (const entry of entries) {
        expect(entry).toMatchObject({ ts: expect.any(Number), caller: expect.any(String), msg: expect.any(String) });
      }
      expect(entries).toContainEqual(expect.objectContaining({ msg: expect.stringContaining('storage: sqlite database'), v: 0 }));
      const list = entries.find((e) => e.msg === 'HTTP' && e['audit-ID'] === auditId);
      expect(list).toMatchObject({
        caller: 'httplog',
        v: 3,
        verb: 'LIST',
        URI: '/api/v1/namespaces/kube-system/configmaps?limit=500',
        resp: 200,
        userAgent: expect.stringMatching(/^kubectl/),
        srcIP: expect.stringMatching(/^127\.0\.0\.1:\d+$/),
      });
    });
  });

  describe('klog text (the default) at -v=0', () => {
    let server: ServerProcess;
    beforeAll(async () => {
      server = await startServerProcess([]);
    }, 60_000);
    afterAll(async () => server?.stop());

    it('writes klog lines and no request lines', async () => {
      kubectlOk(kubectlRunner(kubectlPath!, server.kubeconfig), 'get', 'namespaces');
      await new Promise((resolve) => setTimeout(resolve, 200));
      const lines = server.output().split('\n').filter((l) => l !== '' && !STARTUP.test(l));
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) expect(line).toMatch(/^[IEW]\d{4} \d{2}:\d{2}:\d{2}\.\d{6} +\d+ [^ \]]+:\d+\] "/);
      expect(lines.some((l) => l.includes('"HTTP"'))).toBe(false);
    });

    it('logs a client that hangs up halfway through its request body in one line, without a stack trace', async () => {
      // The admin's client certificate from the kubeconfig: the body is read only once a request is authorized.
      const config = parseYaml(readFileSync(server.kubeconfig, 'utf8')) as { users: { user: Record<string, string> }[] };
      const user = config.users[0]!.user;
      const { port } = new URL(server.url);
      await new Promise<void>((done, fail) => {
        const socket = connect({ host: '127.0.0.1', port: Number(port), rejectUnauthorized: false, cert: Buffer.from(user['client-certificate-data']!, 'base64'), key: Buffer.from(user['client-key-data']!, 'base64') }, () => {
          socket.write('POST /api/v1/namespaces/default/configmaps HTTP/1.1\r\nHost: kapi\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"kind":');
          setTimeout(() => (socket.destroy(), done()), 300);
        });
        socket.on('error', fail);
      });
      const line = await eventually(async () => server.output().split('\n').find((l) => l.includes('the client closed the connection')));
      expect(line).toMatch(/^E\d{4} .*"Internal error" err="aborted: the client closed the connection while sending the request" audit-ID="[0-9a-f-]{36}"$/);
      expect(server.output()).not.toContain('abortIncoming');
    });
  });
});
