import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { kubectlBinaries, kubectlRunner } from '../src/kubectl.js';
import { startServerProcess, type ServerProcess } from '../src/server.js';

const kubectlPath = kubectlBinaries()[0]?.path;
const dir = mkdtempSync(join(tmpdir(), 'kapi-auth-'));
const tokens = join(dir, 'tokens.csv');
writeFileSync(tokens, 'jane-token,jane,uid-jane,"dev,qa"\n');

// kubectl as the admin (client certificate from the written kubeconfig) and as a token user under RBAC.
describe.skipIf(!kubectlPath)('kubectl with a client certificate and with a token, under RBAC', () => {
  let server: ServerProcess;
  let admin: ReturnType<typeof kubectlRunner>;
  let jane: ReturnType<typeof kubectlRunner>;
  let stranger: ReturnType<typeof kubectlRunner>;
  let anonymous: ReturnType<typeof kubectlRunner>;
  beforeAll(async () => {
    // RBAC is the default authorization mode.
    server = await startServerProcess([`--token-auth-file=${tokens}`]);
    admin = kubectlRunner(kubectlPath!, server.kubeconfig);
    // The same cluster and CA, with a token instead of the admin's client certificate.
    const config = parseYaml(readFileSync(server.kubeconfig, 'utf8'));
    const tokenConfig = (token: string) => {
      const path = join(dir, `${token}.kubeconfig`);
      writeFileSync(path, stringifyYaml({ ...config, users: [{ name: config.users[0].name, user: { token } }] }));
      return path;
    };
    jane = kubectlRunner(kubectlPath!, tokenConfig('jane-token'));
    stranger = kubectlRunner(kubectlPath!, tokenConfig('wrong'));
    const anonymousPath = join(dir, 'anonymous.kubeconfig');
    // No credentials (kubectl would prompt for a password without a user name; it sends none with a name alone).
    writeFileSync(anonymousPath, stringifyYaml({ ...config, users: [{ name: config.users[0].name, user: { username: 'nobody' } }] }));
    anonymous = kubectlRunner(kubectlPath!, anonymousPath);
  }, 60_000);
  afterAll(async () => server?.stop());

  it('the admin certificate authenticates as kapi-admin in system:masters', () => {
    const who = JSON.parse(admin('auth', 'whoami', '-o', 'json').stdout);
    expect(who.status.userInfo).toMatchObject({ username: 'kapi-admin', groups: ['system:masters', 'system:authenticated'] });
    expect(admin('auth', 'can-i', 'delete', 'nodes').stdout).toBe('yes\n');
  });

  it('a token user gets only what a RoleBinding grants', () => {
    const who = JSON.parse(jane('auth', 'whoami', '-o', 'json').stdout);
    expect(who.status.userInfo).toMatchObject({ username: 'jane', uid: 'uid-jane', groups: ['dev', 'qa', 'system:authenticated'] });
    expect(jane('auth', 'can-i', 'list', 'configmaps', '-n', 'default')).toMatchObject({ status: 1, stdout: 'no\n' });
    const denied = jane('get', 'configmaps', '-n', 'default');
    expect(denied.status).toBe(1);
    expect(denied.stderr).toContain('configmaps is forbidden: User "jane" cannot list resource "configmaps" in API group "" in the namespace "default"');

    expect(admin('create', 'rolebinding', 'jane-view', '--clusterrole=view', '--user=jane', '-n', 'default').status).toBe(0);
    expect(jane('auth', 'can-i', 'list', 'configmaps', '-n', 'default').stdout).toBe('yes\n');
    expect(jane('auth', 'can-i', 'create', 'configmaps', '-n', 'default')).toMatchObject({ status: 1, stdout: 'no\n' });
    expect(jane('get', 'configmaps', '-n', 'default').status).toBe(0);
    const write = jane('create', 'configmap', 'nope', '-n', 'default');
    expect(write.status).toBe(1);
    expect(write.stderr).toContain('configmaps is forbidden: User "jane" cannot create resource "configmaps"');
    expect(jane('auth', 'can-i', '--list', '-n', 'default').stdout).toMatch(/^configmaps\s+\[\]\s+\[\]\s+\[get list watch\]$/m);
  });

  it('a user who may write roles and bindings cannot grant herself more than she holds (RBAC escalation prevention)', () => {
    expect(admin('create', 'role', 'rbac-writer', '-n', 'escalation', '--verb=create,get', '--resource=roles.rbac.authorization.k8s.io,rolebindings.rbac.authorization.k8s.io').status).toBe(1);
    expect(admin('create', 'namespace', 'escalation').status).toBe(0);
    expect(admin('create', 'role', 'rbac-writer', '-n', 'escalation', '--verb=create,get', '--resource=roles.rbac.authorization.k8s.io,rolebindings.rbac.authorization.k8s.io').status).toBe(0);
    expect(admin('create', 'rolebinding', 'jane-rbac-writer', '--role=rbac-writer', '--user=jane', '-n', 'escalation').status).toBe(0);

    const grab = jane('create', 'rolebinding', 'grab', '--clusterrole=cluster-admin', '--user=jane', '-n', 'escalation');
    expect(grab.status).toBe(1);
    expect(grab.stderr).toContain(
      'rolebindings.rbac.authorization.k8s.io "grab" is forbidden: user "jane" (groups=["dev" "qa" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n' +
        '{APIGroups:["*"], Resources:["*"], Verbs:["*"]}\n{NonResourceURLs:["*"], Verbs:["*"]}',
    );
    const star = jane('create', 'role', 'star', '-n', 'escalation', '--verb=*', '--resource=secrets');
    expect(star.status).toBe(1);
    expect(star.stderr).toContain('{APIGroups:[""], Resources:["secrets"], Verbs:["*"]}');
    expect(jane('get', 'secrets', '-n', 'escalation').status).toBe(1);
    // What she holds she may pass on.
    expect(jane('create', 'role', 'writer-copy', '-n', 'escalation', '--verb=get', '--resource=roles.rbac.authorization.k8s.io').status).toBe(0);
  });

  it('--as impersonates: the admin acting as alice has alice\'s rights; jane may not impersonate', () => {
    const secrets = admin('--as=alice', 'get', 'secrets', '-n', 'default');
    expect(secrets.status).toBe(1);
    expect(secrets.stderr).toContain('secrets is forbidden: User "alice" cannot list resource "secrets" in API group "" in the namespace "default"');
    const who = JSON.parse(admin('auth', 'whoami', '--as=alice', '--as-group=g', '-o', 'json').stdout);
    expect(who.status.userInfo).toEqual({ username: 'alice', groups: ['g', 'system:authenticated'] });
    expect(admin('auth', 'can-i', '--as=alice', 'list', 'secrets')).toMatchObject({ status: 1, stdout: 'no\n' });
    expect(admin('auth', 'can-i', 'list', 'secrets').stdout).toBe('yes\n');
    const janeAsAlice = jane('--as=alice', 'get', 'configmaps', '-n', 'default');
    expect(janeAsAlice.status).toBe(1);
    expect(janeAsAlice.stderr).toContain('users "alice" is forbidden: User "jane" cannot impersonate resource "users" in API group "" at the cluster scope');
  });

  it('a kubeconfig that impersonates with user extras: the server reads the Impersonate-Extra- headers kubectl sends', () => {
    const config = parseYaml(readFileSync(server.kubeconfig, 'utf8'));
    const path = join(dir, 'extras.kubeconfig');
    const user = { ...config.users[0].user, as: 'alice', 'as-groups': ['g'], 'as-user-extra': { scopes: ['view', 'edit'], 'Team.Example.com': ['a'] } };
    writeFileSync(path, stringifyYaml({ ...config, users: [{ name: config.users[0].name, user }] }));
    const who = kubectlRunner(kubectlPath!, path)('auth', 'whoami', '-o', 'json');
    expect(who.status, who.stderr).toBe(0);
    expect(JSON.parse(who.stdout).status.userInfo).toEqual({
      username: 'alice',
      groups: ['g', 'system:authenticated'],
      extra: { scopes: ['view', 'edit'], 'team.example.com': ['a'] },
    });
  });

  it('without credentials (RBAC by default): /version and health answer; discovery and resources are 403 for system:anonymous', () => {
    const version = anonymous('get', '--raw', '/version');
    expect(version.status).toBe(0);
    expect(JSON.parse(version.stdout).gitVersion).toMatch(/^v1\.33/);
    expect(anonymous('get', '--raw', '/readyz').stdout).toBe('ok');
    const pods = anonymous('get', '--raw', '/api/v1/namespaces/default/pods');
    expect(pods.status).toBe(1);
    expect(pods.stderr).toContain('pods is forbidden: User "system:anonymous" cannot list resource "pods" in API group "" in the namespace "default"');
    // As in kube 1.33, system:discovery is for authenticated users only: kubectl's discovery is refused first.
    const get = anonymous('get', 'pods', '-n', 'default');
    expect(get.status).toBe(1);
    expect(get.stderr).toContain('Error from server (Forbidden)');
  });

  it('a bad token is 401', () => {
    const res = stranger('get', 'pods');
    expect(res.status).toBe(1);
    expect(res.stderr).toContain('You must be logged in to the server (the server has asked for the client to provide credentials)');
  });
});
