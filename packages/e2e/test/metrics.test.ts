import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { kubectlBinaries, kubectlOk, kubectlRunner } from '../src/kubectl.js';
import { startServerProcess, type ServerProcess } from '../src/server.js';

// Debian's python3-prometheus-client (the official Prometheus client) parses the exposition: a real parser, not ours.
const PYTHON = '/usr/bin/python3';
const hasParser = existsSync(PYTHON) && spawnSync(PYTHON, ['-c', 'import prometheus_client, kubernetes'], { stdio: 'ignore' }).status === 0;
const kubectlPath = kubectlBinaries()[0]?.path;

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}
type Families = Record<string, { type: string; samples: Sample[] }>;

/** Parses Prometheus text with prometheus_client's parser (which throws on anything malformed). */
function parseMetrics(text: string): Families {
  const res = spawnSync(PYTHON, [join(import.meta.dirname, 'python/metrics_parse.py')], { input: text, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (res.status !== 0) throw new Error(`prometheus_client could not parse /metrics: ${res.stderr}`);
  return JSON.parse(res.stdout) as Families;
}

/** The value of the sample with exactly these labels (0 when absent: a counter not yet counted). */
function sample(families: Families, family: string, name: string, labels: Record<string, string>): number {
  const found = families[family]?.samples.find(
    (s) => s.name === name && Object.keys(s.labels).length === Object.keys(labels).length && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
  return found?.value ?? 0;
}

const dir = mkdtempSync(join(tmpdir(), 'kapi-metrics-'));
const tokens = join(dir, 'tokens.csv');
writeFileSync(tokens, 'scraper-token,scraper,uid-scraper\nprom-token,prom,uid-prom,system:monitoring\n');

describe.skipIf(!hasParser || !kubectlPath)('/metrics, scraped by real clients', () => {
  let server: ServerProcess;
  let admin: ReturnType<typeof kubectlRunner>;
  let scraper: ReturnType<typeof kubectlRunner>;
  let prom: ReturnType<typeof kubectlRunner>;
  let anonymous: ReturnType<typeof kubectlRunner>;
  const scrape = () => parseMetrics(kubectlOk(admin, 'get', '--raw', '/metrics'));
  const request = (verb: string, scope: string, code: string, resource = 'configmaps') => ({
    verb,
    dry_run: '',
    group: '',
    version: 'v1',
    resource,
    subresource: '',
    scope,
    component: 'apiserver',
    code,
  });

  beforeAll(async () => {
    server = await startServerProcess([`--token-auth-file=${tokens}`]);
    admin = kubectlRunner(kubectlPath!, server.kubeconfig);
    const config = parseYaml(readFileSync(server.kubeconfig, 'utf8'));
    const as = (name: string, user: object) => {
      const path = join(dir, `${name}.kubeconfig`);
      writeFileSync(path, stringifyYaml({ ...config, users: [{ name: config.users[0].name, user }] }));
      return kubectlRunner(kubectlPath!, path);
    };
    scraper = as('scraper', { token: 'scraper-token' });
    prom = as('prom', { token: 'prom-token' });
    anonymous = as('anonymous', { username: 'nobody' });
  }, 60_000);
  afterAll(async () => server?.stop());

  it('is valid Prometheus text with kube-apiserver\'s metric families', () => {
    const families = scrape();
    expect(families.apiserver_request).toMatchObject({ type: 'counter' });
    expect(families.apiserver_request_duration_seconds).toMatchObject({ type: 'histogram' });
    for (const name of [
      'apiserver_response_sizes',
      'apiserver_longrunning_requests',
      'apiserver_current_inflight_requests',
      'apiserver_storage_objects',
      'apiserver_storage_size_bytes',
      'etcd_request_duration_seconds',
      'apiserver_registered_watchers',
      'authentication_attempts',
      'apiserver_authorization_decisions',
      'process_resident_memory_bytes',
      'nodejs_heap_size_used_bytes',
    ]) {
      expect(families[name], name).toBeDefined();
    }
    // The SQLite database (the default store) has a size.
    expect(sample(families, 'apiserver_storage_size_bytes', 'apiserver_storage_size_bytes', { storage_cluster_id: '' })).toBeGreaterThan(0);
  });

  it('counts each request by kube verb, scope, code and resource, for kubectl and the Python client alike', () => {
    const before = scrape();
    kubectlOk(admin, 'create', 'configmap', 'counted', '-n', 'default', '--from-literal=a=1');
    kubectlOk(admin, 'get', 'configmap', 'counted', '-n', 'default');
    expect(admin('get', 'configmap', 'missing', '-n', 'default').status).toBe(1);
    kubectlOk(admin, 'get', 'configmaps', '-n', 'default');
    const python = spawnSync(
      PYTHON,
      ['-c', 'import sys; from kubernetes import client, config; config.load_kube_config(sys.argv[1]); client.CoreV1Api().list_namespaced_config_map("default")', server.kubeconfig],
      { encoding: 'utf8' },
    );
    expect(python.stderr).toBe('');
    const middle = scrape();
    kubectlOk(admin, 'delete', 'configmap', 'counted', '-n', 'default');
    const after = scrape();

    const delta = (labels: Record<string, string>, from = before, to = middle) =>
      sample(to, 'apiserver_request', 'apiserver_request_total', labels) - sample(from, 'apiserver_request', 'apiserver_request_total', labels);
    expect(delta(request('POST', 'resource', '201'))).toBe(1);
    expect(delta(request('GET', 'resource', '200'))).toBe(1);
    expect(delta(request('GET', 'resource', '404'))).toBe(1);
    // kubectl's list and the Python client's list.
    expect(delta(request('LIST', 'namespace', '200'))).toBe(2);
    expect(delta(request('DELETE', 'resource', '200'), middle, after)).toBe(1);

    const objects = (f: Families) => sample(f, 'apiserver_storage_objects', 'apiserver_storage_objects', { resource: 'configmaps' });
    expect(objects(middle) - objects(before)).toBe(1);
    expect(objects(after) - objects(middle)).toBe(-1);
    const creates = (f: Families) => sample(f, 'etcd_request_duration_seconds', 'etcd_request_duration_seconds_count', { operation: 'create', type: 'configmaps' });
    expect(creates(middle) - creates(before)).toBe(1);
    const reads = { verb: 'GET', dry_run: '', group: '', version: 'v1', resource: 'configmaps', subresource: '', scope: 'resource', component: 'apiserver' };
    const latency = (f: Families) => sample(f, 'apiserver_request_duration_seconds', 'apiserver_request_duration_seconds_count', reads);
    expect(latency(middle) - latency(before)).toBe(2);
  });

  it('is for system:monitoring: 403 for other users and anonymous, readable once the role is bound', () => {
    const denied = scraper('get', '--raw', '/metrics');
    expect(denied.status).toBe(1);
    expect(denied.stderr).toContain('Error from server (Forbidden)');
    expect(anonymous('get', '--raw', '/metrics').stderr).toContain('Error from server (Forbidden)');
    // A member of the system:monitoring group reads it through kube's bootstrap binding.
    expect(parseMetrics(kubectlOk(prom, 'get', '--raw', '/metrics')).apiserver_request).toBeDefined();
    kubectlOk(admin, 'create', 'clusterrolebinding', 'scraper', '--clusterrole=system:monitoring', '--user=scraper');
    expect(parseMetrics(kubectlOk(scraper, 'get', '--raw', '/metrics')).apiserver_request).toBeDefined();
    // What the role grants is /metrics and health, nothing else.
    expect(scraper('get', 'configmaps', '-n', 'default').status).toBe(1);
  });

  it('answers every request with an Audit-Id, the client\'s own when it sent one', () => {
    const verbose = admin('get', '--raw', '/version', '-v=8');
    expect(verbose.status).toBe(0);
    expect(verbose.stderr).toMatch(/Audit-Id: [0-9a-f-]{36}/);
    const python = spawnSync(
      PYTHON,
      [
        '-c',
        'import sys; from kubernetes import client, config; config.load_kube_config(sys.argv[1]); api = client.ApiClient(); ' +
          'data, status, headers = api.call_api("/api/v1/namespaces", "GET", header_params={"Audit-ID": "trace-me-42"}, _preload_content=False); print(headers["Audit-Id"])',
        server.kubeconfig,
      ],
      { encoding: 'utf8' },
    );
    expect(python.stderr).toBe('');
    expect(python.stdout.trim()).toBe('trace-me-42');
  });
});
