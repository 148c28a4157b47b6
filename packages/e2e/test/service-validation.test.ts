// kube 1.33's Service validation, health-check node ports and IP families, as clients see them: the in-process
// server for the exact Status of each rule, then kubectl and the Python client against the built server.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCorePlugin } from '@kapi/api-core';
import { createApiServer, type ApiServer } from '@kapi/apiserver';
import { createMemoryBackend } from '@kapi/storage';
import { loadDataPlugins } from '../src/groups.js';
import { kubectlBinaries, kubectlOf, runAsync } from '../src/kubectl.js';
import { manifestWriter } from '../src/manifests.js';
import { startServerProcess, type ServerProcess } from '../src/server.js';

const others = (await loadDataPlugins()).filter((p) => p.definition.group !== '');
const SERVICES = '/api/v1/namespaces/default/services';
const PYTHON = '/usr/bin/python3';
const kubectlBin = kubectlBinaries()[0];

async function req(server: ApiServer, method: string, path: string, body?: unknown) {
  const headers = { 'content-type': method === 'PATCH' ? 'application/merge-patch+json' : 'application/json' };
  const res = await server.fetch(new Request(`http://kapi.test${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }));
  return { status: res.status, body: (await res.json()) as any };
}

let n = 0;
const svc = (spec: Record<string, unknown>, metadata: Record<string, unknown> = {}) => ({ metadata: { name: `s${n++}`, ...metadata }, spec });

describe('Service validation (kube 1.33 ValidateService)', { timeout: 30_000 }, () => {
  let server: ApiServer;
  beforeAll(async () => {
    server = createApiServer({ storage: createMemoryBackend(), plugins: [createCorePlugin({ nodePortRange: '30000-30009' }), ...others] });
    await server.start();
  });
  afterAll(() => server?.stop());

  /** Creates the Service and returns the messages of the causes of its 422 (the test fails on another answer). */
  const refused = async (spec: Record<string, unknown>, metadata?: Record<string, unknown>) => {
    const res = await req(server, 'POST', SERVICES, svc(spec, metadata));
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.body).toMatchObject({ kind: 'Status', reason: 'Invalid', details: { kind: 'Service' } });
    return (res.body.details.causes as { field: string; message: string }[]).map((c) => `${c.field}: ${c.message}`);
  };
  const port80 = [{ port: 80 }];

  it('refuses what kube refuses, with its messages', async () => {
    const cases: [Record<string, unknown>, string[]][] = [
      [{ ports: [] }, ['spec.ports: Required value']],
      [{ ports: [{ port: 70000 }] }, ['spec.ports[0].port: Invalid value: 70000: must be between 1 and 65535, inclusive', 'spec.ports[0].targetPort: Invalid value: 70000: must be between 1 and 65535, inclusive']],
      // A port without a number is kube's port 0 (the schema's "required" is not kube's check), its target port too.
      [{ ports: [{ name: 'web' }] }, ['spec.ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive', 'spec.ports[0].targetPort: Invalid value: 0: must be between 1 and 65535, inclusive']],
      [{ ports: [{ port: 80, protocol: 'XTP' }] }, ['spec.ports[0].protocol: Unsupported value: "XTP": supported values: "SCTP", "TCP", "UDP"']],
      [{ ports: [{ port: 80, targetPort: 'Not_A_Name' }] }, ['spec.ports[0].targetPort: Invalid value: "Not_A_Name": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)']],
      [
        { ports: [{ port: 80 }, { port: 80 }] },
        [
          'spec.ports[0].name: Required value',
          'spec.ports[1].name: Required value',
          'spec.ports[1]: Duplicate value: core.ServicePort{Name:"", Protocol:"TCP", AppProtocol:(*string)(nil), Port:80, TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:""}, NodePort:0}',
        ],
      ],
      [{ ports: [{ name: 'a', port: 80 }, { name: 'a', port: 81 }] }, ['spec.ports[1].name: Duplicate value: "a"']],
      [{ type: 'Bogus', ports: port80 }, ['spec.type: Unsupported value: "Bogus": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"']],
      [{ sessionAffinity: 'Sticky', ports: port80 }, ['spec.sessionAffinity: Unsupported value: "Sticky": supported values: "ClientIP", "None"']],
      [
        { sessionAffinity: 'ClientIP', sessionAffinityConfig: { clientIP: { timeoutSeconds: 90000 } }, ports: port80 },
        ['spec.sessionAffinityConfig.clientIP.timeoutSeconds: Invalid value: 90000: must be greater than 0 and less than 86400'],
      ],
      [
        { externalIPs: ['abc', '127.0.0.1', '169.254.1.1', '224.0.0.1', '0.0.0.0', '1.2.3.4'], ports: port80 },
        [
          'spec.externalIPs[0]: Invalid value: "abc": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
          'spec.externalIPs[1]: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
          'spec.externalIPs[2]: Invalid value: "169.254.1.1": may not be in the link-local range (169.254.0.0/16, fe80::/10)',
          'spec.externalIPs[3]: Invalid value: "224.0.0.1": may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)',
          'spec.externalIPs[4]: Invalid value: "0.0.0.0": may not be unspecified (0.0.0.0)',
        ],
      ],
      [{ selector: { 'bad key!': 'x' }, ports: port80 }, [expect.stringMatching(/^spec\.selector: Invalid value: "bad key!": name part must consist of alphanumeric characters/) as unknown as string]],
      [{ clusterIP: 'abc', ports: port80 }, ['spec.clusterIPs[0]: Invalid value: "abc": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)']],
      [{ clusterIP: '10.0.0.50', clusterIPs: ['10.0.0.51'], ports: port80 }, ['spec.clusterIPs: Invalid value: []string{"10.0.0.51"}: first value must match `clusterIP`']],
      [{ type: 'NodePort', clusterIP: 'None', ports: port80 }, ["spec.clusterIPs[0]: Invalid value: \"None\": may not be set to 'None' for NodePort services"]],
      [{ type: 'ClusterIP', ports: [{ port: 80, nodePort: 30001 }] }, ["spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'"]],
      [{ type: 'ExternalName', externalName: 'a..b' }, [expect.stringMatching(/^spec\.externalName: Invalid value: "a\.\.b": a lowercase RFC 1123 subdomain/) as unknown as string]],
      [{ type: 'ExternalName' }, ['spec.externalName: Required value']],
      [{ type: 'ExternalName', externalName: 'example.com', clusterIP: '10.0.0.9' }, ['spec.clusterIPs: Forbidden: may not be set for ExternalName services']],
      [{ loadBalancerSourceRanges: ['10.0.0.0/8'], ports: port80 }, ["spec.LoadBalancerSourceRanges: Forbidden: may only be used when `type` is 'LoadBalancer'"]],
      [{ type: 'LoadBalancer', loadBalancerSourceRanges: ['10.0.0.0/40'], ports: port80 }, ['spec.LoadBalancerSourceRanges[0]: Invalid value: "10.0.0.0/40": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)']],
      [{ externalTrafficPolicy: 'Local', ports: port80 }, ['spec.externalTrafficPolicy: Invalid value: "Local": may only be set for externally-accessible services']],
      [{ type: 'NodePort', externalTrafficPolicy: 'Nearby', ports: port80 }, ['spec.externalTrafficPolicy: Unsupported value: "Nearby": supported values: "Cluster", "Local"']],
      [{ healthCheckNodePort: 30005, ports: port80 }, ["spec.healthCheckNodePort: Invalid value: 30005: may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'"]],
      [{ trafficDistribution: 'Anywhere', ports: port80 }, ['spec.trafficDistribution: Unsupported value: "Anywhere": supported values: "PreferClose"']],
      [{ loadBalancerClass: 'example.com/lb', ports: port80 }, ["spec.loadBalancerClass: Forbidden: may only be used when `type` is 'LoadBalancer'"]],
      [{ ipFamilyPolicy: 'RequireDualStack', ports: port80 }, ['spec.ipFamilyPolicy: Invalid value: "RequireDualStack": this cluster is not configured for dual-stack services']],
      [{ ipFamilies: ['IPv6'], ports: port80 }, ['spec.ipFamilies[0]: Invalid value: "IPv6": IPv6 is not configured on this cluster']],
      [{ ipFamilies: ['IPv5'], ports: port80 }, ['spec.ipFamilies[0]: Unsupported value: "IPv5": supported values: "IPv4", "IPv6"']],
      [{ clusterIP: 'fd00::10', ports: port80 }, ['spec.clusterIPs[0]: Invalid value: []string{"fd00::10"}: IPv6 is not configured on this cluster']],
    ];
    for (const [spec, messages] of cases) expect(await refused(spec), JSON.stringify(spec)).toEqual(messages);
    expect(await refused({ ports: port80 }, { name: '1abc' })).toEqual([expect.stringMatching(/^metadata\.name: Invalid value: "1abc": a DNS-1035 label/)]);
    // What a refused Service asked for is not taken: the node port range is still whole.
    expect((await req(server, 'GET', SERVICES)).body.items.filter((s: any) => s.metadata.name !== 'kubernetes')).toEqual([]);
  });

  it('gives a LoadBalancer that keeps traffic local a health-check node port, kept on update and released with the need', async () => {
    const created = await req(server, 'POST', SERVICES, { metadata: { name: 'lb' }, spec: { type: 'LoadBalancer', externalTrafficPolicy: 'Local', selector: { app: 'web' }, ports: port80 } });
    expect(created.status).toBe(201);
    const health = created.body.spec.healthCheckNodePort as number;
    expect(health).toBeGreaterThanOrEqual(30000);
    expect(health).toBeLessThanOrEqual(30009);
    expect(health).not.toBe(created.body.spec.ports[0].nodePort);

    // A replace without it (a manifest applied again) keeps it; a different one is refused.
    const { healthCheckNodePort: _, ...spec } = created.body.spec;
    const replaced = await req(server, 'PUT', `${SERVICES}/lb`, { ...created.body, spec });
    expect(replaced.body.spec.healthCheckNodePort).toBe(health);
    const moved = await req(server, 'PATCH', `${SERVICES}/lb`, { spec: { healthCheckNodePort: health === 30009 ? 30008 : 30009 } });
    expect(moved.body.message).toBe('Service "lb" is invalid: spec.healthCheckNodePort: Forbidden: field is immutable');

    // Another Service may not take it.
    const taken = await req(server, 'POST', SERVICES, svc({ type: 'NodePort', ports: [{ port: 80, nodePort: health }] }));
    expect(taken.body.details.causes).toEqual([{ reason: 'FieldValueInvalid', field: 'spec.ports[0].nodePort', message: `Invalid value: ${health}: provided port is already allocated` }]);
    // kube answers a health-check port it cannot give with a 500 (alloc.go wraps the allocator's error as internal).
    const asked = await req(server, 'POST', SERVICES, svc({ type: 'LoadBalancer', externalTrafficPolicy: 'Local', healthCheckNodePort: 31000, ports: port80 }));
    expect(asked.status).toBe(500);
    expect(asked.body.message).toBe(
      'Internal error occurred: failed to allocate requested HealthCheck NodePort 31000: provided port is not in the valid range. The range of valid ports is 30000-30009',
    );

    // Traffic no longer local: the port goes, free for another Service at once.
    const cluster = await req(server, 'PATCH', `${SERVICES}/lb`, { spec: { externalTrafficPolicy: 'Cluster' } });
    expect(cluster.status).toBe(200);
    expect(cluster.body.spec.healthCheckNodePort).toBeUndefined();
    const reused = await req(server, 'POST', SERVICES, svc({ type: 'NodePort', ports: [{ port: 80, nodePort: health }] }));
    expect(reused.status, JSON.stringify(reused.body)).toBe(201);
    expect((await req(server, 'DELETE', `${SERVICES}/${reused.body.metadata.name}`)).status).toBe(200);
  });

  it('gives IP families as a single-stack IPv4 cluster does: a headless Service without a selector is dual-stack', async () => {
    const create = async (spec: Record<string, unknown>) => (await req(server, 'POST', SERVICES, svc({ ports: port80, ...spec }))).body.spec;
    expect(await create({ clusterIP: 'None' })).toMatchObject({ clusterIPs: ['None'], ipFamilyPolicy: 'RequireDualStack', ipFamilies: ['IPv4', 'IPv6'] });
    expect(await create({ clusterIP: 'None', ipFamilyPolicy: 'SingleStack' })).toMatchObject({ ipFamilyPolicy: 'SingleStack', ipFamilies: ['IPv4'] });
    expect(await create({ clusterIP: 'None', selector: { app: 'x' } })).toMatchObject({ ipFamilyPolicy: 'SingleStack', ipFamilies: ['IPv4'] });
    expect(await create({ ipFamilyPolicy: 'PreferDualStack' })).toMatchObject({ ipFamilyPolicy: 'PreferDualStack', ipFamilies: ['IPv4'], clusterIPs: [expect.stringMatching(/^10\.0\.0\./)] });
  });
});

describe.skipIf(!kubectlBin)('Service validation through kubectl and the Python client, against the built server', { timeout: 60_000 }, () => {
  let server: ServerProcess;
  const write = manifestWriter('kapi-services-');
  const { kubectl, ok } = kubectlOf(() => server);
  beforeAll(async () => {
    server = await startServerProcess(['--storage-backend=memory']);
  }, 60_000);
  afterAll(() => server?.stop());

  it('kubectl shows kube\'s reasons and creates what kube creates', async () => {
    const bad = write('apiVersion: v1\nkind: Service\nmetadata: {name: bad}\nspec:\n  ports: [{port: 80}, {port: 80}]\n  externalIPs: ["127.0.0.1"]\n');
    const res = await kubectl(kubectlBin!.path, 'create', '-f', bad);
    expect(res.status).toBe(1);
    expect(res.stderr).toContain('The Service "bad" is invalid:');
    expect(res.stderr).toContain('* spec.ports[1]: Duplicate value: core.ServicePort{Name:"", Protocol:"TCP"');
    expect(res.stderr).toContain('* spec.externalIPs[0]: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)');
    await ok(kubectlBin!.path, 'create', 'deployment', 'web', '--image=nginx');
    await ok(kubectlBin!.path, 'expose', 'deployment', 'web', '--port=80', '--type=LoadBalancer');
    expect(await ok(kubectlBin!.path, 'get', 'service', 'web', '-o', 'jsonpath={.spec.type} {.spec.externalTrafficPolicy} {.spec.allocateLoadBalancerNodePorts}')).toBe('LoadBalancer Cluster true');
  });

  it.skipIf(!existsSync(PYTHON))('the Python client: a read-modify-replace keeps the health-check node port; a refused Service is ApiException 422', async () => {
    const res = await runAsync(PYTHON, [join(import.meta.dirname, 'python/services.py'), server.kubeconfig, 'default']);
    expect(res.stderr).toBe('');
    const out = JSON.parse(res.stdout);
    expect(out.healthCheckNodePort).toBeGreaterThanOrEqual(30000);
    expect(out.replacedHealthCheckNodePort).toBe(out.healthCheckNodePort);
    expect(out.replacedLabels).toEqual({ replaced: 'yes' });
    expect(out.refused).toEqual({
      status: 422,
      reason: 'Invalid',
      message: 'Service "py-bad" is invalid: spec.externalIPs[0]: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
    });
  });
});
