// Service-account tokens (kube's TokenRequest, the bound-token authenticator, TokenReview, issuer discovery) and the
// default ServiceAccount of every namespace, driven with kubectl and the Python client against the built server.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { kubectlBinaries, kubectlOk, kubectlRunner } from '../src/kubectl.js';
import { startServerProcess, type ServerProcess } from '../src/server.js';

const kubectlPath = kubectlBinaries()[0]?.path;
const PYTHON = '/usr/bin/python3';
const hasPythonClient = existsSync(PYTHON) && spawnSync(PYTHON, ['-c', 'import kubernetes'], { encoding: 'utf8' }).status === 0;
const dir = mkdtempSync(join(tmpdir(), 'kapi-sa-'));
const tokens = join(dir, 'tokens.csv');
writeFileSync(tokens, 'alice-token,alice,alice-uid\n');
const ISSUER = 'https://kubernetes.default.svc.cluster.local';
// Two issuers (kube's migration between issuers: the first issues, both are accepted and are the API audiences), a
// static token user, and a maximum token lifetime.
const SERVER_ARGS = ['--storage-backend=sqlite', `--service-account-issuer=${ISSUER}`, '--service-account-issuer=https://old.example', `--token-auth-file=${tokens}`, '--service-account-max-token-expiration=24h'];

/** A JWT's payload, decoded (not verified). */
const claims = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8'));

describe.skipIf(!kubectlPath)('service-account tokens with kubectl and the Python client, under RBAC', () => {
  let server: ServerProcess;
  let admin: ReturnType<typeof kubectlRunner>;
  let config: { clusters: { cluster: Record<string, string> }[]; users: { name: string; user: Record<string, string> }[] };
  /** kubectl with only a bearer token, as a pod's client would run. */
  const asToken = (token: string) => {
    const path = join(dir, `token-${Math.random().toString(36).slice(2)}.kubeconfig`);
    writeFileSync(path, stringifyYaml({ ...config, users: [{ name: config.users[0]!.name, user: { token } }] }));
    return kubectlRunner(kubectlPath!, path);
  };
  const createToken = (...args: string[]) => {
    const res = admin('create', 'token', ...args);
    expect(res.status, res.stderr).toBe(0);
    return res.stdout.trim();
  };

  beforeAll(async () => {
    server = await startServerProcess(SERVER_ARGS);
    admin = kubectlRunner(kubectlPath!, server.kubeconfig);
    config = parseYaml(readFileSync(server.kubeconfig, 'utf8'));
    expect(admin('create', 'namespace', 'team').status).toBe(0);
    expect(admin('create', 'serviceaccount', 'robot', '-n', 'team').status).toBe(0);
    expect(admin('create', 'role', 'cm-reader', '-n', 'team', '--verb=get,list', '--resource=configmaps').status).toBe(0);
    expect(admin('create', 'rolebinding', 'robot-reads', '-n', 'team', '--role=cm-reader', '--serviceaccount=team:robot').status).toBe(0);
    expect(admin('create', 'configmap', 'settings', '-n', 'team', '--from-literal=a=b').status).toBe(0);
  }, 120_000);
  afterAll(async () => server?.stop());

  it('every namespace gets a default ServiceAccount, again after it is deleted', async () => {
    const poll = async (check: () => boolean) => {
      for (let i = 0; i < 100 && !check(); i++) await new Promise((r) => setTimeout(r, 100));
      return check();
    };
    expect(await poll(() => admin('get', 'serviceaccount', 'default', '-n', 'team').status === 0)).toBe(true);
    for (const ns of ['default', 'kube-system', 'kube-public']) expect(admin('get', 'serviceaccount', 'default', '-n', ns).status).toBe(0);
    const uid = admin('get', 'serviceaccount', 'default', '-n', 'team', '-o', 'jsonpath={.metadata.uid}').stdout;
    expect(admin('delete', 'serviceaccount', 'default', '-n', 'team').status).toBe(0);
    expect(await poll(() => {
      const again = admin('get', 'serviceaccount', 'default', '-n', 'team', '-o', 'jsonpath={.metadata.uid}');
      return again.status === 0 && again.stdout !== '' && again.stdout !== uid;
    })).toBe(true);
  });

  it('kubectl create token gives a bound token with kube\'s claims; the service account has its RBAC rights and no more', () => {
    const token = createToken('robot', '-n', 'team');
    const c = claims(token);
    expect(c).toMatchObject({
      iss: ISSUER,
      sub: 'system:serviceaccount:team:robot',
      aud: [ISSUER, 'https://old.example'],
      'kubernetes.io': { namespace: 'team', serviceaccount: { name: 'robot' } },
    });
    expect(c.exp - c.iat).toBe(3600);
    expect(typeof c.jti).toBe('string');
    const robot = asToken(token);
    const who = JSON.parse(robot('auth', 'whoami', '-o', 'json').stdout);
    expect(who.status.userInfo).toMatchObject({
      username: 'system:serviceaccount:team:robot',
      groups: ['system:serviceaccounts', 'system:serviceaccounts:team', 'system:authenticated'],
      extra: { 'authentication.kubernetes.io/credential-id': [`JTI=${c.jti}`] },
    });
    expect(robot('get', 'configmaps', '-n', 'team', '-o', 'name').stdout).toContain('configmap/settings');
    const secrets = robot('get', 'secrets', '-n', 'team');
    expect(secrets.status).toBe(1);
    expect(secrets.stderr).toContain('User "system:serviceaccount:team:robot" cannot list resource "secrets"');
    // Issuer discovery is for service accounts (system:service-account-issuer-discovery).
    const openid = JSON.parse(robot('get', '--raw', '/.well-known/openid-configuration').stdout);
    expect(openid).toMatchObject({ issuer: 'https://kubernetes.default.svc.cluster.local', response_types_supported: ['id_token'], id_token_signing_alg_values_supported: ['RS256'] });
    const jwks = JSON.parse(robot('get', '--raw', '/openid/v1/jwks').stdout);
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).toMatchObject({ use: 'sig', kty: 'RSA', alg: 'RS256', e: 'AQAB' });
    expect(JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString()).kid).toBe(jwks.keys[0].kid);
  });

  it('refuses tampered tokens, tokens for other audiences, and tokens of deleted service accounts and pods', () => {
    const token = createToken('robot', '-n', 'team');
    const [h, p, s] = token.split('.');
    const forged = { ...claims(token), sub: 'system:serviceaccount:kube-system:default', 'kubernetes.io': { ...claims(token)['kubernetes.io'], namespace: 'kube-system' } };
    for (const bad of [`${h}.${Buffer.from(JSON.stringify(forged)).toString('base64url')}.${s}`, `${h}.${p}.${s!.slice(0, -4)}AAAA`, `${Buffer.from('{"alg":"none"}').toString('base64url')}.${p}.`]) {
      const res = asToken(bad)('get', 'configmaps', '-n', 'team');
      expect(res.status).toBe(1);
      expect(res.stderr).toContain('You must be logged in to the server');
    }
    // Another audience: not for this API, but TokenReview answers for the audience it names.
    const other = createToken('robot', '-n', 'team', '--audience=vault');
    expect(claims(other).aud).toEqual(['vault']);
    expect(asToken(other)('get', 'configmaps', '-n', 'team').stderr).toContain('You must be logged in to the server');
    const review = (spec: object) => {
      const path = join(dir, `review-${Math.random().toString(36).slice(2)}.json`);
      writeFileSync(path, JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec }));
      return JSON.parse(admin('create', '-f', path, '-o', 'json').stdout).status;
    };
    expect(review({ token: other })).toMatchObject({ authenticated: false, error: `token audiences ["vault"] is invalid for the target audiences ["${ISSUER}","https://old.example"]` });
    expect(review({ token: other, audiences: ['vault'] })).toMatchObject({ authenticated: true, audiences: ['vault'], user: { username: 'system:serviceaccount:team:robot' } });
    expect(review({ token })).toMatchObject({ authenticated: true, audiences: [ISSUER, 'https://old.example'], user: { username: 'system:serviceaccount:team:robot' } });
    // A static token has no audience of its own: it is good for this API's audiences, and for no other.
    expect(review({ token: 'alice-token' })).toMatchObject({ authenticated: true, audiences: [ISSUER, 'https://old.example'], user: { username: 'alice' } });
    expect(review({ token: 'alice-token', audiences: ['vault'] })).toEqual({ authenticated: false, error: 'invalid bearer token' });
    expect(review({ token: 'alice-token', audiences: ['vault', 'https://old.example'] })).toMatchObject({ authenticated: true, audiences: ['https://old.example'] });
    // Tokens nobody knows, and tokens no header could carry, are not authenticated (and are no server error).
    expect(review({ token: 'no-such-token' })).toEqual({ authenticated: false, error: 'invalid bearer token' });
    expect(review({ token: 'line\nbreak' })).toEqual({ authenticated: false, error: 'invalid bearer token' });
    const unknown = asToken('no-such-token')('get', '--raw', '/version');
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain('Unauthorized');

    // Bound to a pod: valid while the pod exists, refused once it is gone.
    expect(admin('run', 'worker', '-n', 'team', '--image=nginx', '--overrides={"spec":{"serviceAccountName":"robot"}}').status).toBe(0);
    const bound = createToken('robot', '-n', 'team', '--bound-object-kind=Pod', '--bound-object-name=worker');
    expect(claims(bound)['kubernetes.io'].pod.name).toBe('worker');
    const pod = JSON.parse(asToken(bound)('auth', 'whoami', '-o', 'json').stdout).status.userInfo;
    expect(pod.extra['authentication.kubernetes.io/pod-name']).toEqual(['worker']);
    // A pod of another service account cannot be bound to robot's token.
    expect(admin('run', 'other', '-n', 'team', '--image=nginx').status).toBe(0);
    const wrongPod = admin('create', 'token', 'robot', '-n', 'team', '--bound-object-kind=Pod', '--bound-object-name=other');
    expect(wrongPod.stderr).toContain('cannot bind token for serviceaccount "robot" to pod running with different serviceaccount name.');
    expect(admin('delete', 'pod', 'worker', '-n', 'team').status).toBe(0);
    expect(asToken(bound)('get', 'configmaps', '-n', 'team').stderr).toContain('You must be logged in to the server');

    // The service account deleted and created again (a new uid): its old tokens are refused.
    expect(admin('delete', 'serviceaccount', 'robot', '-n', 'team').status).toBe(0);
    expect(admin('create', 'serviceaccount', 'robot', '-n', 'team').status).toBe(0);
    expect(asToken(token)('get', 'configmaps', '-n', 'team').stderr).toContain('You must be logged in to the server');
    expect(asToken(createToken('robot', '-n', 'team'))('get', 'configmaps', '-n', 'team').status).toBe(0);
  });

  it('validates TokenRequests as kube does', () => {
    expect(admin('create', 'token', 'robot', '-n', 'team', '--duration=5m').stderr).toContain(
      'TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 300: may not specify a duration less than 10 minutes',
    );
    expect(admin('create', 'token', 'nobody', '-n', 'team').stderr).toContain('serviceaccounts "nobody" not found');
    expect(admin('create', 'token', 'robot', '-n', 'team', '--bound-object-kind=Pod', '--bound-object-name=missing').stderr).toContain('pods "missing" not found');
    const long = admin('create', 'token', 'robot', '-n', 'team', '--duration=48h');
    expect(long.status, long.stderr).toBe(0);
    expect(long.stderr).toContain('requested expiration of 172800 seconds shortened to 86400 seconds');
    const shortened = claims(long.stdout.trim());
    expect(shortened.exp - shortened.iat).toBe(24 * 3600);
    const named = join(dir, 'named-request.json');
    writeFileSync(named, JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', metadata: { name: 'someone-else' }, spec: {} }));
    expect(admin('create', '--raw', '/api/v1/namespaces/team/serviceaccounts/robot/token', '-f', named).stderr).toContain(
      'The TokenRequest "robot" is invalid: metadata.name: Invalid value: "someone-else": must match the service account name if specified',
    );
  });

  it('a token bound to a pod names its node, and does not depend on the node', async () => {
    const node = join(dir, 'node.json');
    writeFileSync(node, JSON.stringify({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' } }));
    kubectlOk(admin, 'create', '-f', node);
    kubectlOk(admin, 'run', 'on-node', '-n', 'team', '--image=nginx', '--overrides={"spec":{"serviceAccountName":"robot","nodeName":"n1"}}');
    const token = createToken('robot', '-n', 'team', '--bound-object-kind=Pod', '--bound-object-name=on-node');
    expect(claims(token)['kubernetes.io'].node).toEqual({ name: 'n1', uid: kubectlOk(admin, 'get', 'node', 'n1', '-o', 'jsonpath={.metadata.uid}') });
    kubectlOk(admin, 'delete', 'node', 'n1');
    const who = JSON.parse(kubectlOk(asToken(token), 'auth', 'whoami', '-o', 'json')).status.userInfo;
    expect(who.extra['authentication.kubernetes.io/node-name']).toEqual(['n1']);
  });

  it.skipIf(!hasPythonClient)('python3-kubernetes: requests a token and works as the service account with it', () => {
    const ca = join(dir, 'ca.crt');
    writeFileSync(ca, Buffer.from(config.clusters[0]!.cluster['certificate-authority-data']!, 'base64'));
    const res = spawnSync(PYTHON, [join(import.meta.dirname, 'python/service_account_token.py'), server.kubeconfig, 'team', 'robot', ca], { encoding: 'utf8', timeout: 60_000 });
    expect(res.status, res.stderr).toBe(0);
    // The namespace's own kube-root-ca.crt is listed too, as on kube.
    expect(JSON.parse(res.stdout)).toEqual({ expirationTimestamp: true, configMaps: ['kube-root-ca.crt', 'settings'], secrets: 403, canListConfigMaps: true, tampered: 401 });
  });

  it('tokens stay valid across a restart: the signing key is kept in the data dir', async () => {
    const token = createToken('robot', '-n', 'team');
    expect(existsSync(join(server.dataDir, 'service-account.key'))).toBe(true);
    await server.stop();
    server = await startServerProcess(SERVER_ARGS, { dataDir: server.dataDir });
    config = parseYaml(readFileSync(server.kubeconfig, 'utf8'));
    expect(asToken(token)('get', 'configmaps', '-n', 'team', '-o', 'name').stdout).toContain('configmap/settings');
  }, 120_000);
});
