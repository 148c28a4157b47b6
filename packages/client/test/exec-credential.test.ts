// Exec credential plugins (kubeconfig `user.exec`), as EKS, GKE and kubelogin users configure them: the plugin is run
// with client-go's input, its token or client certificate is sent to a real server over HTTPS, kept until it expires
// or the server refuses it, and a plugin that fails or answers badly is a clear error.
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { group as authentication } from '@kapi/api-authentication';
import { groupPlugin, tokenFileAuthenticator, x509Authenticator } from '@kapi/apiserver';
import { startTestServer, type TestServer } from '@kapi/testing';
import { parse, stringify } from 'yaml';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadKubeconfig, Transport } from '../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'kapi-client-exec-'));
const RUNS = join(dir, 'runs.jsonl');
const ANSWER = join(dir, 'answer.json');
const V1 = 'client.authentication.k8s.io/v1';

// The plugin: records what it was given (KUBERNETES_EXEC_INFO, its argument and env), then prints answer.json, or
// fails as answer.json says.
writeFileSync(
  join(dir, 'plugin.mjs'),
  `#!/usr/bin/env node
import { appendFileSync, readFileSync } from 'node:fs';
appendFileSync(${JSON.stringify(RUNS)}, JSON.stringify({ info: JSON.parse(process.env.KUBERNETES_EXEC_INFO), arg: process.argv[2], env: process.env.PLUGIN_REGION }) + '\\n');
const answer = JSON.parse(readFileSync(${JSON.stringify(ANSWER)}, 'utf8'));
if (answer.fail) { process.stderr.write(answer.fail); process.exit(3); }
process.stdout.write(typeof answer.raw === 'string' ? answer.raw : JSON.stringify(answer));
`,
);
chmodSync(join(dir, 'plugin.mjs'), 0o755);

let server: TestServer;
let admin: { cert: string; key: string; ca: string };

beforeAll(async () => {
  server = await startTestServer({
    plugins: [groupPlugin(authentication)], // SelfSubjectReview: who the server says the caller is
    // Tokens as kube's --token-auth-file has them, beside the admin's client certificate.
    apiServer: { authenticators: [x509Authenticator(), tokenFileAuthenticator('good-token,exec-user,uid-1,"system:masters"\nother-token,other-user,uid-2,"system:masters"\n')] },
  });
  const config = loadKubeconfig({ path: server.kubeconfig });
  admin = { cert: String(config.cert), key: String(config.key), ca: String(config.ca) };
});
afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => writeFileSync(RUNS, ''));

const answer = (value: object) => writeFileSync(ANSWER, JSON.stringify(value));
const credential = (status: object, apiVersion = V1) => answer({ apiVersion, kind: 'ExecCredential', status });
const runs = () => readFileSync(RUNS, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { info: Record<string, unknown>; arg: string; env: string });

/** The server's kubeconfig with its user replaced by an exec plugin (the command relative to the kubeconfig). */
function execKubeconfig(exec: Record<string, unknown>, clusterExtension?: object): Transport {
  const doc = parse(readFileSync(server.kubeconfig!, 'utf8')) as { clusters: { cluster: Record<string, unknown> }[]; users: { user: Record<string, unknown> }[] };
  doc.users[0].user = { exec: { command: './plugin.mjs', args: ['from-args'], env: [{ name: 'PLUGIN_REGION', value: 'eu-west-1' }], ...exec } };
  if (clusterExtension) doc.clusters[0].cluster.extensions = [{ name: 'client.authentication.k8s.io/exec', extension: clusterExtension }];
  const path = join(dir, 'kubeconfig.yaml');
  writeFileSync(path, stringify(doc));
  return new Transport(loadKubeconfig({ path }));
}

/** Who the server says the request came from. */
async function whoami(transport: Transport): Promise<string> {
  const review = await transport.json<{ status: { userInfo: { username: string } } }>({
    method: 'POST',
    path: '/apis/authentication.k8s.io/v1/selfsubjectreviews',
    body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
  });
  return review.status.userInfo.username;
}

describe('exec credential plugins', () => {
  it('sends the token the plugin prints, with client-go input, and keeps it until it expires', async () => {
    const transport = execKubeconfig({ apiVersion: V1, interactiveMode: 'IfAvailable' });
    try {
      credential({ token: 'good-token', expirationTimestamp: new Date(Date.now() + 3_600_000).toISOString() });
      expect(await whoami(transport)).toBe('exec-user');
      expect(await whoami(transport)).toBe('exec-user');
      const [first, ...more] = runs();
      expect(more).toHaveLength(0); // one run, kept for the hour it holds
      expect(first.info).toEqual({ apiVersion: V1, kind: 'ExecCredential', spec: { interactive: false } });
      expect(first.arg).toBe('from-args');
      expect(first.env).toBe('eu-west-1');

      // An answer that has expired is not kept: every request runs the plugin again.
      const expired = execKubeconfig({ apiVersion: V1, interactiveMode: 'Never' });
      credential({ token: 'other-token', expirationTimestamp: '2020-01-01T00:00:00Z' });
      expect(await whoami(expired)).toBe('other-user');
      expect(await whoami(expired)).toBe('other-user');
      expect(runs()).toHaveLength(3);
      await expired.close();
    } finally {
      await transport.close();
    }
  });

  it('runs the plugin again after the server answers 401, and hands it the cluster with provideClusterInfo', async () => {
    const transport = execKubeconfig({ apiVersion: 'client.authentication.k8s.io/v1beta1', provideClusterInfo: true }, { audience: 'kapi' });
    try {
      credential({ token: 'revoked-token' }, 'client.authentication.k8s.io/v1beta1');
      const refused = await whoami(transport).catch((e: unknown) => e as { status?: number });
      expect(refused).toMatchObject({ code: 401 });
      credential({ token: 'good-token' }, 'client.authentication.k8s.io/v1beta1');
      expect(await whoami(transport)).toBe('exec-user');
      const seen = runs();
      expect(seen).toHaveLength(2);
      expect(seen[0].info.spec).toEqual({
        interactive: false,
        cluster: { server: server.url, 'certificate-authority-data': Buffer.from(admin.ca).toString('base64'), config: { audience: 'kapi' } },
      });
    } finally {
      await transport.close();
    }
  });

  it('presents the client certificate the plugin prints', async () => {
    const transport = execKubeconfig({ apiVersion: V1, interactiveMode: 'Never' });
    try {
      credential({ clientCertificateData: admin.cert, clientKeyData: admin.key });
      expect(await whoami(transport)).toBe('kapi-admin');
    } finally {
      await transport.close();
    }
  });

  it('a token or password in the kubeconfig wins: the plugin is not run', async () => {
    const doc = parse(readFileSync(server.kubeconfig!, 'utf8')) as { users: { user: Record<string, unknown> }[] };
    doc.users[0].user = { token: 'other-token', exec: { command: join(dir, 'plugin.mjs'), apiVersion: V1, interactiveMode: 'Never' } };
    const transport = new Transport(loadKubeconfig({ text: stringify(doc) }));
    try {
      credential({ token: 'good-token' });
      expect(await whoami(transport)).toBe('other-user');
      expect(runs()).toHaveLength(0);
    } finally {
      await transport.close();
    }
  });

  it('fails clearly when the plugin is missing, fails, or answers what client-go would refuse', async () => {
    const failing = async (exec: Record<string, unknown>) => {
      const transport = execKubeconfig({ apiVersion: V1, interactiveMode: 'Never', ...exec });
      try {
        return await whoami(transport).then(
          () => 'no error',
          (e: unknown) => (e as Error).message,
        );
      } finally {
        await transport.close();
      }
    };
    expect(await failing({ command: 'kapi-no-such-plugin', installHint: 'Install it with: npm i -g kapi-no-such-plugin' })).toBe(
      'exec: executable kapi-no-such-plugin not found\n\nInstall it with: npm i -g kapi-no-such-plugin',
    );
    answer({ fail: 'could not reach the identity provider' });
    expect(await failing({})).toMatch(/^exec: executable .*plugin\.mjs failed with exit code 3: could not reach the identity provider$/);
    writeFileSync(ANSWER, JSON.stringify({ raw: 'not json' }));
    expect(await failing({})).toMatch(/^decoding stdout: /);
    credential({ token: 'good-token' }, 'client.authentication.k8s.io/v1beta1');
    expect(await failing({})).toBe(`exec plugin is configured to use API version ${V1}, plugin returned version client.authentication.k8s.io/v1beta1`);
    answer({ apiVersion: V1, kind: 'ExecCredential' });
    expect(await failing({})).toBe("exec plugin didn't return a status field");
    credential({});
    expect(await failing({})).toBe("exec plugin didn't return a token or cert/key pair");
    credential({ clientCertificateData: admin.cert });
    expect(await failing({})).toBe('exec plugin returned only certFile or keyFile, not both');
    credential({ token: 'good-token' });
    expect(await failing({ interactiveMode: 'Always' })).toBe('exec plugin cannot support interactive mode: standard input is not a terminal');
  });

  it('refuses exec entries client-go refuses, with its messages', () => {
    const load = (exec: Record<string, unknown>) => () => execKubeconfig(exec);
    expect(load({ apiVersion: V1 })).toThrow('interactiveMode must be specified for kapi-admin to use exec authentication plugin');
    expect(load({ apiVersion: V1, interactiveMode: 'Sometimes' })).toThrow('invalid interactiveMode for kapi-admin: "Sometimes"');
    expect(load({ command: '', apiVersion: '' })).toThrow(
      'invalid configuration: command must be specified for kapi-admin to use exec authentication plugin, apiVersion must be specified for kapi-admin to use exec authentication plugin',
    );
    expect(load({ apiVersion: V1, interactiveMode: 'Never', env: [{ value: 'x' }] })).toThrow('env variable name must be specified for kapi-admin to use exec authentication plugin');
  });
});
