// The main rules of kube 1.33's Pod validation, as clients see them: the in-process server for the exact Status of
// each rule, then kubectl and the Python client against the built server.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as k8s from '@kubernetes/client-node';
import { createCorePlugin, setupCapabilities } from '@kapi/api-core';
import { createApiServer, type ApiServer } from '@kapi/apiserver';
import { createMemoryBackend } from '@kapi/storage';
import { loadDataPlugins } from '../src/groups.js';
import { kubectlBinaries, kubectlOf, runAsync } from '../src/kubectl.js';
import { manifestWriter } from '../src/manifests.js';
import { startServerProcess, type ServerProcess } from '../src/server.js';

const others = (await loadDataPlugins()).filter((p) => p.definition.group !== '');
const PODS = '/api/v1/namespaces/default/pods';
const PYTHON = '/usr/bin/python3';
const kubectlBin = kubectlBinaries()[0];

async function req(server: ApiServer, method: string, path: string, body?: unknown) {
  const headers = { 'content-type': method === 'PATCH' ? 'application/strategic-merge-patch+json' : 'application/json' };
  const res = await server.fetch(new Request(`http://kapi.test${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }));
  return { status: res.status, body: (await res.json()) as any };
}

let n = 0;
const app = (extra: Record<string, unknown> = {}) => ({ name: 'app', image: 'nginx', ...extra });

describe('Pod validation (kube 1.33 ValidatePodCreate, ValidatePodUpdate)', { timeout: 30_000 }, () => {
  let server: ApiServer;
  beforeAll(async () => {
    server = createApiServer({ storage: createMemoryBackend(), plugins: [createCorePlugin(), ...others] });
    await server.start();
  });
  afterAll(() => server?.stop());

  const refused = async (spec: Record<string, unknown>) => {
    const res = await req(server, 'POST', PODS, { metadata: { name: `p${n++}` }, spec });
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.body).toMatchObject({ kind: 'Status', reason: 'Invalid', details: { kind: 'Pod' } });
    return (res.body.details.causes as { field: string; message: string }[]).map((c) => `${c.field}: ${c.message}`);
  };

  it('refuses what kube refuses, with its messages', async () => {
    const cases: [Record<string, unknown>, (string | RegExp)[]][] = [
      [{ containers: [] }, ['spec.containers: Required value']],
      [{ containers: [{ name: 'app' }] }, ['spec.containers[0].image: Required value']],
      [{ containers: [{ image: 'nginx' }] }, ['spec.containers[0].name: Required value']],
      [{ containers: [app({ name: 'Bad_Name' })] }, [/^spec\.containers\[0\]\.name: Invalid value: "Bad_Name": a lowercase RFC 1123 label must consist of/]],
      [{ containers: [app(), app()] }, ['spec.containers[1].name: Duplicate value: "app"']],
      [{ initContainers: [app()], containers: [app()] }, ['spec.initContainers[0].name: Duplicate value: "app"']],
      [{ containers: [app({ ports: [{ containerPort: 70000 }] })] }, ['spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive']],
      [{ containers: [app({ ports: [{ containerPort: 80, protocol: 'XTP' }] })] }, ['spec.containers[0].ports[0].protocol: Unsupported value: "XTP": supported values: "SCTP", "TCP", "UDP"']],
      [
        { containers: [app({ ports: [{ containerPort: 80, name: 'http' }, { containerPort: 81, name: 'http' }] })] },
        ['spec.containers[0].ports[1].name: Duplicate value: "http"'],
      ],
      [{ containers: [app({ env: [{ name: 'A=B', value: '1' }] })] }, ["spec.containers[0].env[0].name: Invalid value: \"A=B\": a valid environment variable name must consist only of printable ASCII characters other than '='"]],
      [{ containers: [app({ volumeMounts: [{ name: 'data', mountPath: '/data' }] })] }, ['spec.containers[0].volumeMounts[0].name: Not found: "data"']],
      [
        { volumes: [{ name: 'data', emptyDir: {} }], containers: [app({ volumeMounts: [{ mountPath: '/a' }, { name: 'data', mountPath: '/a' }] })] },
        ['spec.containers[0].volumeMounts[0].name: Required value', 'spec.containers[0].volumeMounts[0].name: Not found: ""', 'spec.containers[0].volumeMounts[1].mountPath: Invalid value: "/a": must be unique'],
      ],
      [{ volumes: [{ name: 'data' }], containers: [app()] }, ['spec.volumes[0]: Required value: must specify a volume type']],
      [{ volumes: [{ name: 'data', emptyDir: {} }, { name: 'data', emptyDir: {} }], containers: [app()] }, ['spec.volumes[1].name: Duplicate value: "data"']],
      [{ restartPolicy: 'Sometimes', containers: [app()] }, ['spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"']],
      [{ dnsPolicy: 'Google', containers: [app()] }, ['spec.dnsPolicy: Unsupported value: "Google": supported values: "ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"']],
      [{ containers: [app({ terminationMessagePolicy: 'Log' })] }, ['spec.containers[0].terminationMessagePolicy: Unsupported value: "Log": supported values: "File", "FallbackToLogsOnError"']],
      [{ containers: [app({ imagePullPolicy: 'Sometimes' })] }, ['spec.containers[0].imagePullPolicy: Unsupported value: "Sometimes": supported values: "Always", "IfNotPresent", "Never"']],
      [{ containers: [app()], ephemeralContainers: [{ name: 'debug', image: 'busybox' }] }, ['spec.ephemeralContainers: Forbidden: cannot be set on create']],
      // probes and lifecycle hooks
      [{ containers: [app({ livenessProbe: {} })] }, ['spec.containers[0].livenessProbe: Required value: must specify a handler type']],
      [{ containers: [app({ readinessProbe: { exec: { command: ['true'] }, tcpSocket: { port: 80 } } })] }, ['spec.containers[0].readinessProbe.tcpSocket: Forbidden: may not specify more than 1 handler type']],
      [{ containers: [app({ livenessProbe: { exec: { command: [] } } })] }, ['spec.containers[0].livenessProbe.exec.command: Required value']],
      [
        { containers: [app({ startupProbe: { httpGet: { port: 70000 }, successThreshold: 2, periodSeconds: -1 } })] },
        [
          'spec.containers[0].startupProbe.httpGet.port: Invalid value: 70000: must be between 1 and 65535, inclusive',
          'spec.containers[0].startupProbe.periodSeconds: Invalid value: -1: must be greater than or equal to 0',
          'spec.containers[0].startupProbe.successThreshold: Invalid value: 2: must be 1',
        ],
      ],
      [{ containers: [app({ livenessProbe: { tcpSocket: { port: 'Not_A_Name' } } })] }, [/^spec\.containers\[0\]\.livenessProbe\.tcpSocket\.port: Invalid value: "Not_A_Name": must contain only alpha-numeric characters/]],
      [{ containers: [app({ readinessProbe: { grpc: { port: 9000 }, terminationGracePeriodSeconds: 10 } })] }, ['spec.containers[0].readinessProbe.terminationGracePeriodSeconds: Invalid value: 10: must not be set for readinessProbes']],
      [{ containers: [app({ lifecycle: { preStop: { sleep: { seconds: 100 } } } })] }, ['spec.containers[0].lifecycle.preStop.sleep: Invalid value: 100: must be non-negative and less than terminationGracePeriodSeconds (30)']],
      [{ containers: [app({ lifecycle: { postStart: {} } })] }, ['spec.containers[0].lifecycle.postStart: Required value: must specify a handler type']],
      // init containers: only sidecars (restartPolicy Always) may have probes; regular containers no restart policy
      [{ initContainers: [app({ name: 'init', livenessProbe: { exec: { command: ['true'] } } })], containers: [app()] }, ['spec.initContainers[0].livenessProbe: Forbidden: may not be set for init containers without restartPolicy=Always']],
      [{ initContainers: [app({ name: 'init', restartPolicy: 'OnFailure' })], containers: [app()] }, ['spec.initContainers[0].restartPolicy: Unsupported value: "OnFailure": supported values: "Always"']],
      [{ containers: [app({ restartPolicy: 'Always' })] }, ['spec.containers[0].restartPolicy: Forbidden: may not be set for non-init containers']],
      // host ports, environment
      [
        { containers: [app({ ports: [{ containerPort: 80, hostPort: 8080 }] }), app({ name: 'two', ports: [{ containerPort: 81, hostPort: 8080 }] })] },
        ['spec.containers[1].ports[0].hostPort: Duplicate value: "TCP//8080"'],
      ],
      [{ containers: [app({ env: [{ name: 'A', value: 'x', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }] })] }, ['spec.containers[0].env[0].valueFrom: Invalid value: "": may not be specified when `value` is not empty']],
      [{ containers: [app({ env: [{ name: 'A', valueFrom: {} }] })] }, ['spec.containers[0].env[0].valueFrom: Invalid value: "": must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`']],
      // resources
      [
        { containers: [app({ resources: { requests: { cpu: '2', memory: '1Gi' }, limits: { cpu: '1', memory: '1Gi' } } })] },
        ['spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1'],
      ],
      [{ containers: [app({ resources: { requests: { memory: '-1' } } })] }, ['spec.containers[0].resources.requests[memory]: Invalid value: "-1": must be greater than or equal to 0']],
      // (defaulting copies limits into absent requests, so both are reported, as kube does)
      [
        { containers: [app({ resources: { limits: { gpu: '1' } } })] },
        ['spec.containers[0].resources.limits[gpu]: Invalid value: "gpu": must be a standard resource type or fully qualified', 'spec.containers[0].resources.requests[gpu]: Invalid value: "gpu": must be a standard resource type or fully qualified'],
      ],
      [
        { containers: [app({ resources: { limits: { pods: '1' } } })] },
        ['spec.containers[0].resources.limits[pods]: Invalid value: "pods": must be a standard resource for containers', 'spec.containers[0].resources.requests[pods]: Invalid value: "pods": must be a standard resource for containers'],
      ],
      [
        { containers: [app({ resources: { requests: { 'example.com/gpu': '500m' } } })] },
        ['spec.containers[0].resources.requests[example.com/gpu]: Invalid value: resource.Quantity{i:resource.int64Amount{value:500, scale:-3}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"500m", Format:"DecimalSI"}: must be an integer', 'spec.containers[0].resources.limits: Required value: Limit must be set for non overcommitable resources'],
      ],
      [{ containers: [app({ resources: { limits: { 'hugepages-2Mi': '4Mi' } } })] }, ['spec.containers[0].resources: Forbidden: HugePages require cpu or memory']],
      // the spec's other fields, in kube's order
      [{ hostNetwork: true, containers: [app({ ports: [{ containerPort: 80, hostPort: 8080 }] })] }, ['spec.containers[0].ports[0].hostPort: Invalid value: 8080: must match `containerPort` when `hostNetwork` is true']],
      [{ dnsPolicy: 'None', containers: [app()] }, ['spec.dnsConfig: Required value: must provide `dnsConfig` when `dnsPolicy` is None']],
      [{ dnsConfig: { nameservers: ['1.1.1.1', 'dns'], options: [{ value: '2' }] }, containers: [app()] }, ['spec.dnsConfig.nameservers[1]: Invalid value: "dns": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)', 'spec.dnsConfig.options[0]: Required value: must not be empty']],
      [
        { securityContext: { runAsUser: -1, supplementalGroups: [1, 4294967296] }, shareProcessNamespace: true, hostPID: true, containers: [app({ securityContext: { runAsGroup: -5 } })] },
        [
          'spec.containers[0].securityContext.runAsGroup: Invalid value: -5: must be between 0 and 2147483647, inclusive',
          'spec.securityContext.runAsUser: Invalid value: -1: must be between 0 and 2147483647, inclusive',
          'spec.securityContext.supplementalGroups[1]: Invalid value: 4294967296: must be between 0 and 2147483647, inclusive',
          'spec.securityContext.shareProcessNamespace: Invalid value: true: ShareProcessNamespace and HostPID cannot both be enabled',
        ],
      ],
      [
        {
          topologySpreadConstraints: [
            { maxSkew: 0, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchExpressions: [{ key: 'app', operator: 'In' }] } },
            { maxSkew: 1, topologyKey: '', whenUnsatisfiable: 'Sometimes', minDomains: 2 },
            { maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule' },
          ],
          containers: [app()],
        },
        [
          'spec.topologySpreadConstraints[0].maxSkew: Invalid value: 0: must be greater than zero',
          'spec.topologySpreadConstraints[0].{topologyKey, whenUnsatisfiable}: Duplicate value: "{zone, DoNotSchedule}"',
          "spec.topologySpreadConstraints[0].labelSelector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
          'spec.topologySpreadConstraints[1].topologyKey: Required value: can not be empty',
          'spec.topologySpreadConstraints[1].whenUnsatisfiable: Unsupported value: "Sometimes": supported values: "DoNotSchedule", "ScheduleAnyway"',
          'spec.topologySpreadConstraints[1].minDomains: Invalid value: 2: can only use minDomains if whenUnsatisfiable=DoNotSchedule, not Sometimes',
        ],
      ],
      [
        { readinessGates: [{ conditionType: 'bad gate' }], schedulingGates: [{ name: 'example.com/wait' }, { name: 'example.com/wait' }], containers: [app()] },
        [/^spec\.readinessGates\[0\]\.conditionType: Invalid value: "bad gate": name part must consist of/, 'spec.schedulingGates[1]: Duplicate value: "example.com/wait"'],
      ],
      [{ activeDeadlineSeconds: 0, containers: [app()] }, ['spec.activeDeadlineSeconds: Invalid value: 0: must be between 1 and 2147483647, inclusive']],
      [{ hostname: 'Web_1', containers: [app()] }, [/^spec\.hostname: Invalid value: "Web_1": a lowercase RFC 1123 label must consist of/]],
      [
        { tolerations: [{ key: 'k', operator: 'Exists', value: 'v' }, { operator: 'Equal', value: 'x' }, { key: 'k', value: 'v', effect: 'NoSchedule', tolerationSeconds: 60 }, { key: 'k', operator: 'Exists', effect: 'Sometimes' }], containers: [app()] },
        [
          "spec.tolerations[0].operator: Invalid value: \"v\": value must be empty when `operator` is 'Exists'",
          'spec.tolerations[1].operator: Invalid value: "Equal": operator must be Exists when `key` is empty, which means "match all values and all keys"',
          "spec.tolerations[2].effect: Invalid value: \"NoSchedule\": effect must be 'NoExecute' when `tolerationSeconds` is set",
          'spec.tolerations[3].effect: Unsupported value: "Sometimes": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
        ],
      ],
      [{ containers: [app({ envFrom: [{ prefix: 'A=' }] })] }, ["spec.containers[0].envFrom[0].prefix: Invalid value: \"A=\": a valid environment variable name must consist only of printable ASCII characters other than '='", 'spec.containers[0].envFrom: Invalid value: "": must specify one of: `configMapRef` or `secretRef`']],
    ];
    for (const [spec, messages] of cases) {
      const got = await refused(spec);
      expect(got, JSON.stringify(spec)).toHaveLength(messages.length);
      messages.forEach((m, i) => (typeof m === 'string' ? expect(got[i]).toBe(m) : expect(got[i]).toMatch(m)));
    }
  });

  it("allows privileged and HostProcess containers only with the process's --allow-privileged (kube's capabilities)", async () => {
    const privileged = app({ securityContext: { privileged: true } });
    const hostProcess = { os: { name: 'windows' }, hostNetwork: true, securityContext: { windowsOptions: { hostProcess: true } }, containers: [app()] };
    try {
      setupCapabilities({ allowPrivileged: true });
      expect((await req(server, 'POST', PODS, { metadata: { name: 'privileged' }, spec: { containers: [privileged] } })).status).toBe(201);
      expect((await req(server, 'POST', PODS, { metadata: { name: 'host-process' }, spec: hostProcess })).status).toBe(201);
      setupCapabilities({ allowPrivileged: false });
      expect(await refused({ containers: [app()], initContainers: [{ ...privileged, name: 'init' }] })).toEqual([
        'spec.initContainers[0].securityContext.privileged: Forbidden: disallowed by cluster policy',
      ]);
      expect(await refused(hostProcess)).toEqual(['spec: Forbidden: hostProcess containers are disallowed by cluster policy']);
      // A pod template is judged the same way (a DaemonSet's, through kubectl, below).
      const template = { metadata: { name: 'privileged' }, template: { spec: { containers: [privileged] } } };
      const res = await req(server, 'POST', '/api/v1/namespaces/default/podtemplates', template);
      expect(res.status).toBe(422);
      expect(res.body.message).toBe('PodTemplate "privileged" is invalid: template.spec.containers[0].securityContext.privileged: Forbidden: disallowed by cluster policy');
      // As in kube, an update judges the whole spec again: a privileged pod made earlier cannot be relabelled now.
      const relabel = await req(server, 'PATCH', `${PODS}/privileged`, { metadata: { labels: { a: 'b' } } });
      expect(relabel.status).toBe(422);
      expect(relabel.body.message).toBe('Pod "privileged" is invalid: spec.containers[0].securityContext.privileged: Forbidden: disallowed by cluster policy');
    } finally {
      setupCapabilities({ allowPrivileged: false });
    }
  });

  it('refuses bad affinity, security contexts, host aliases, class names, preemption policies and OS fields with kube 1.33 messages', async () => {
    const term = (extra: Record<string, unknown> = {}) => ({ labelSelector: { matchLabels: { app: 'web' } }, topologyKey: 'kubernetes.io/hostname', ...extra });
    const cases: [Record<string, unknown>, (string | RegExp)[]][] = [
      [
        {
          affinity: {
            nodeAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: {
                nodeSelectorTerms: [
                  { matchExpressions: [{ key: 'zone', operator: 'In' }, { key: 'gpu', operator: 'Exists', values: ['x'] }, { key: 'n', operator: 'Gt', values: ['1', '2'] }, { key: 'z', operator: 'Near', values: ['bad value!'] }] },
                  { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['a', 'b'] }, { key: 'spec.unschedulable', operator: 'Exists' }] },
                ],
              },
              preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 0, preference: { matchExpressions: [{ key: 'zone', operator: 'In', values: ['any value!'] }] } }],
            },
          },
          containers: [app()],
        },
        [
          "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
          "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[1].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
          "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[2].values: Required value: must be specified single value when `operator` is 'Lt' or 'Gt'",
          'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[3].operator: Invalid value: "Near": not a valid selector operator',
          /^spec\.affinity\.nodeAffinity\.requiredDuringSchedulingIgnoredDuringExecution\.nodeSelectorTerms\[0\]\.matchExpressions\[3\]\.values\[0\]: Invalid value: "bad value!": a valid label must be an empty string or consist of/,
          "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[1].matchFields[0].values: Required value: must be only one value when `operator` is 'In' or 'NotIn' for node field selector",
          'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[1].matchFields[1].operator: Invalid value: "Exists": not a valid selector operator',
          'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[1].matchFields[1].key: Invalid value: "spec.unschedulable": not a valid field selector key',
          'spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 0: must be in the range 1-100',
        ],
      ],
      [
        { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [] } } }, containers: [app()] },
        ['spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms: Required value: must have at least one node selector term'],
      ],
      [
        {
          affinity: {
            podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term({ topologyKey: '', namespaces: ['Bad_NS'] }), { matchLabelKeys: ['pod-template-hash'], topologyKey: 'zone' }] },
            podAntiAffinity: {
              preferredDuringSchedulingIgnoredDuringExecution: [
                { weight: 101, podAffinityTerm: term({ matchLabelKeys: ['tier'], mismatchLabelKeys: ['tier'] }) },
                { weight: 1, podAffinityTerm: term({ labelSelector: { matchExpressions: [{ key: 'app', operator: 'Within', values: ['x'] }] } }) },
              ],
            },
          },
          containers: [app()],
        },
        [
          /^spec\.affinity\.podAffinity\.requiredDuringSchedulingIgnoredDuringExecution\[0\]\.namespace: Invalid value: "Bad_NS": a lowercase RFC 1123 label must consist of/,
          'spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: Required value: can not be empty',
          /^spec\.affinity\.podAffinity\.requiredDuringSchedulingIgnoredDuringExecution\[0\]\.topologyKey: Invalid value: "": name part must be non-empty/,
          /^spec\.affinity\.podAffinity\.requiredDuringSchedulingIgnoredDuringExecution\[0\]\.topologyKey: Invalid value: "": name part must consist of/,
          'spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[1].matchLabelKeys: Forbidden: must not be specified when labelSelector is not set',
          'spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 101: must be in the range 1-100',
          'spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.matchLabelKeys[0]: Invalid value: "tier": exists in both matchLabelKeys and mismatchLabelKeys',
          'spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[1].podAffinityTerm.labelSelector.matchExpressions[0].operator: Invalid value: "Within": not a valid selector operator',
        ],
      ],
      [
        {
          securityContext: {
            sysctls: [{ name: 'net.core.somaxconn', value: '1024' }, { name: 'Bad..Name', value: '1' }, { name: 'net.core.somaxconn', value: '2' }, { name: 'kernel.shm_rmid_forced', value: '1' }],
            fsGroupChangePolicy: 'Sometimes',
            seccompProfile: { type: 'Localhost', localhostProfile: '../escape.json' },
            appArmorProfile: { type: 'RuntimeDefault', localhostProfile: 'p' },
            supplementalGroupsPolicy: 'Loose',
            seLinuxChangePolicy: 'Never',
          },
          hostNetwork: true,
          hostIPC: true,
          containers: [app({ securityContext: { procMount: 'Unmasked', allowPrivilegeEscalation: false, privileged: true, seccompProfile: { type: 'RuntimeDefault', localhostProfile: 'x' }, appArmorProfile: {} } })],
        },
        [
          'spec.containers[0].securityContext.privileged: Forbidden: disallowed by cluster policy',
          'spec.containers[0].securityContext.procMount: Invalid value: "Unmasked": `hostUsers` must be false to use `Unmasked`',
          'spec.containers[0].securityContext.seccompProfile.localhostProfile: Invalid value: {"type":"RuntimeDefault","localhostProfile":"x"}: can only be set when seccomp type is Localhost',
          /^spec\.containers\[0\]\.securityContext: Invalid value: .*: cannot set `allowPrivilegeEscalation` to false and `privileged` to true$/,
          'spec.containers[0].securityContext.appArmorProfile.type: Required value: type is required when appArmorProfile is set',
          "spec.securityContext.sysctls[0].name: Invalid value: \"net.core.somaxconn\": may not be specified when 'hostNetwork' is true",
          'spec.securityContext.sysctls[1].name: Invalid value: "Bad..Name": must have at most 253 characters and match regex ^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[\\./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$',
          'spec.securityContext.sysctls[2].name: Duplicate value: "net.core.somaxconn"',
          "spec.securityContext.sysctls[2].name: Invalid value: \"net.core.somaxconn\": may not be specified when 'hostNetwork' is true",
          "spec.securityContext.sysctls[3].name: Invalid value: \"kernel.shm_rmid_forced\": may not be specified when 'hostIPC' is true",
          'spec.securityContext.fsGroupChangePolicy: Unsupported value: "Sometimes": supported values: "Always", "OnRootMismatch"',
          'spec.securityContext.seccompProfile.localhostProfile: Invalid value: "../escape.json": must not contain \'..\'',
          'spec.securityContext.appArmorProfile.localhostProfile: Invalid value: "p": can only be set when AppArmor type is Localhost',
          'spec.securityContext.supplementalGroupsPolicy: Unsupported value: "Loose": supported values: "Merge", "Strict"',
          'spec.securityContext.seLinuxChangePolicy: Unsupported value: "Never": supported values: "MountOption", "Recursive"',
        ],
      ],
      [
        { hostAliases: [{ ip: '10.0.0.300', hostnames: ['ok.example', 'Bad_Host'] }], runtimeClassName: 'Not_A_Class', preemptionPolicy: 'Always', containers: [app()] },
        [
          'spec.hostAliases[0].ip: Invalid value: "10.0.0.300": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
          /^spec\.hostAliases\[0\]\.hostnames\[1\]: Invalid value: "Bad_Host": a lowercase RFC 1123 subdomain must consist of/,
          /^spec\.runtimeClassName: Invalid value: "Not_A_Class": a lowercase RFC 1123 subdomain must consist of/,
          'spec.preemptionPolicy: Unsupported value: "Always": supported values: "PreemptLowerPriority", "Never"',
        ],
      ],
      [
        {
          topologySpreadConstraints: [
            { maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'ScheduleAnyway', labelSelector: { matchLabels: { app: 'web' } }, matchLabelKeys: ['app', 'pod-template-hash'] },
            { maxSkew: 1, topologyKey: 'node', whenUnsatisfiable: 'ScheduleAnyway', matchLabelKeys: ['bad key'] },
          ],
          hostUsers: false,
          hostNetwork: true,
          hostPID: true,
          restartPolicy: 'Never',
          overhead: { cpu: '-1' },
          containers: [app({ resizePolicy: [{ resourceName: 'cpu', restartPolicy: 'RestartContainer' }, { resourceName: 'cpu', restartPolicy: 'NotRequired' }, { resourceName: 'gpu', restartPolicy: 'NotRequired' }] })],
        },
        [
          'spec.containers[0].resizePolicy: Invalid value: "RestartContainer": must be \'NotRequired\' when `restartPolicy` is \'Never\'',
          'spec.containers[0].resizePolicy[1]: Duplicate value: "cpu"',
          'spec.containers[0].resizePolicy: Unsupported value: "gpu": supported values: "cpu", "memory"',
          'spec.topologySpreadConstraints[0].matchLabelKeys[0]: Invalid value: "app": exists in both matchLabelKeys and labelSelector',
          'spec.topologySpreadConstraints[1].matchLabelKeys: Forbidden: must not be specified when labelSelector is not set',
          /^spec\.topologySpreadConstraints\[1\]\.matchLabelKeys\[0\]: Invalid value: "bad key": name part must consist of/,
          'spec.hostNetwork: Forbidden: when `pod.Spec.HostUsers` is false',
          'spec.HostPID: Forbidden: when `pod.Spec.HostUsers` is false',
          // kube checks overhead as a container's limits, under that name
          'spec.overhead.limits[cpu]: Invalid value: "-1": must be greater than or equal to 0',
        ],
      ],
      [
        {
          os: { name: 'windows' },
          securityContext: { windowsOptions: { hostProcess: true } },
          containers: [app(), app({ name: 'two', securityContext: { windowsOptions: { hostProcess: false } } })],
        },
        [
          'spec.containers[1].securityContext.windowsOptions.hostProcess: Invalid value: false: pod hostProcess value must be identical if both are specified, was true',
          'spec: Invalid value: "": If pod contains any hostProcess containers then all containers must be HostProcess containers',
          'spec.hostNetwork: Invalid value: false: hostNetwork must be true if pod contains any hostProcess containers',
          // this server, as kube-apiserver by default, runs without --allow-privileged
          'spec: Forbidden: hostProcess containers are disallowed by cluster policy',
        ],
      ],
      [
        {
          securityContext: { windowsOptions: { gmsaCredentialSpecName: 'Not_A_Name', gmsaCredentialSpec: '' } },
          containers: [
            app({ securityContext: { windowsOptions: { runAsUserName: 'a\\b\\c' } } }),
            app({ name: 'two', securityContext: { windowsOptions: { runAsUserName: 'bad:domain\\..' } } }),
            app({ name: 'three', securityContext: { windowsOptions: { runAsUserName: `${'u'.repeat(105)}`, gmsaCredentialSpec: 'x'.repeat(64 * 1024 + 1) } } }),
            app({ name: 'four', securityContext: { windowsOptions: { runAsUserName: 'tab\there' } } }),
            app({ name: 'five', securityContext: { windowsOptions: { runAsUserName: 'user@corp' } } }),
          ],
        },
        [
          'spec.containers[0].securityContext.windowsOptions.runAsUserName: Invalid value: "a\\\\b\\\\c": runAsUserName cannot contain more than one backslash',
          'spec.containers[1].securityContext.windowsOptions.runAsUserName: Invalid value: "bad:domain\\\\..": runAsUserName\'s Domain doesn\'t match the NetBios nor the DNS format',
          'spec.containers[1].securityContext.windowsOptions.runAsUserName: Invalid value: "bad:domain\\\\..": runAsUserName\'s User cannot contain only periods or spaces',
          /^spec\.containers\[2\]\.securityContext\.windowsOptions\.gmsaCredentialSpec: Invalid value: "x+": gmsaCredentialSpec size must be under 64 KiB$/,
          /^spec\.containers\[2\]\.securityContext\.windowsOptions\.runAsUserName: Invalid value: "u+": runAsUserName's User length must not be longer than 104 characters$/,
          'spec.containers[3].securityContext.windowsOptions.runAsUserName: Invalid value: "tab\\there": runAsUserName cannot contain control characters',
          'spec.containers[4].securityContext.windowsOptions.runAsUserName: Invalid value: "user@corp": runAsUserName\'s User cannot contain the following characters: "/\\:;|=,+*?<>@[]',
          /^spec\.securityContext\.windowsOptions\.gmsaCredentialSpecName: Invalid value: "Not_A_Name": a lowercase RFC 1123 subdomain must consist of/,
          'spec.securityContext.windowsOptions.gmsaCredentialSpec: Invalid value: "": gmsaCredentialSpec cannot be an empty string',
        ],
      ],
      [{ nodeName: 'node-1', schedulingGates: [{ name: 'example.com/wait' }], containers: [app()] }, ['spec.nodeName: Forbidden: cannot be set until all schedulingGates have been cleared']],
      [{ os: { name: 'plan9' }, containers: [app()] }, ['spec.os: Unsupported value: "plan9": supported values: "linux", "windows"']],
      [{ os: { name: 'linux' }, containers: [app({ securityContext: { windowsOptions: { runAsUserName: 'ContainerUser' } } })] }, ['spec.containers[0].securityContext.windowsOptions: Forbidden: windows options cannot be set for a linux pod']],
      [
        { os: { name: 'windows' }, hostPID: true, securityContext: { runAsUser: 1000, seccompProfile: { type: 'RuntimeDefault' } }, containers: [app({ securityContext: { privileged: false, capabilities: { add: ['NET_ADMIN'] } } })] },
        [
          'spec.hostPID: Forbidden: cannot be set for a windows pod',
          'spec.securityContext.seccompProfile: Forbidden: cannot be set for a windows pod',
          'spec.securityContext.runAsUser: Forbidden: cannot be set for a windows pod',
          'spec.containers[0].securityContext.capabilities: Forbidden: cannot be set for a windows pod',
          'spec.containers[0].securityContext.privileged: Forbidden: cannot be set for a windows pod',
        ],
      ],
    ];
    for (const [spec, messages] of cases) {
      const got = await refused(spec);
      expect(got, JSON.stringify(spec)).toHaveLength(messages.length);
      messages.forEach((m, i) => (typeof m === 'string' ? expect(got[i]).toBe(m) : expect(got[i]).toMatch(m)));
    }
  });

  it("refuses bad volume sources, mounts, devices and environment selectors with kube 1.33 messages", async () => {
    const cases: [Record<string, unknown>, (string | RegExp)[]][] = [
      [
        {
          volumes: [
            { name: 'none', ephemeral: { volumeClaimTemplate: { spec: {} } } },
            {
              name: 'bad',
              ephemeral: {
                volumeClaimTemplate: {
                  spec: {
                    accessModes: ['ReadWriteOncePod', 'ReadWriteOnce', 'WriteSometimes'],
                    resources: { requests: { storage: '0' } },
                    storageClassName: 'Fast_SSD',
                    volumeMode: 'Raw',
                    dataSource: { kind: 'VolumeSnapshot', name: 'snap' },
                    dataSourceRef: { kind: 'PersistentVolumeClaim', name: 'other' },
                  },
                },
              },
            },
          ],
          containers: [app()],
        },
        [
          'spec.volumes[0].ephemeral.volumeClaimTemplate.spec.accessModes: Required value: at least 1 access mode is required',
          'spec.volumes[0].ephemeral.volumeClaimTemplate.spec.resources[storage]: Required value',
          'spec.volumes[1].ephemeral.volumeClaimTemplate.spec.accessModes: Unsupported value: "WriteSometimes": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"',
          'spec.volumes[1].ephemeral.volumeClaimTemplate.spec.accessModes: Forbidden: may not use ReadWriteOncePod with other access modes',
          'spec.volumes[1].ephemeral.volumeClaimTemplate.spec.resources[storage]: Invalid value: "0": must be greater than zero',
          /^spec\.volumes\[1\]\.ephemeral\.volumeClaimTemplate\.spec\.storageClassName: Invalid value: "Fast_SSD": a lowercase RFC 1123 subdomain/,
          'spec.volumes[1].ephemeral.volumeClaimTemplate.spec.volumeMode: Unsupported value: "Raw": supported values: "Block", "Filesystem"',
          "spec.volumes[1].ephemeral.volumeClaimTemplate.spec.dataSource: Invalid value: \"VolumeSnapshot\": must be 'PersistentVolumeClaim' when referencing the default apiGroup",
          'spec.volumes[1].ephemeral.volumeClaimTemplate.spec: Invalid value: "spec.volumes[1].ephemeral.volumeClaimTemplate.spec.dataSource": must match dataSourceRef',
        ],
      ],
      [
        {
          volumes: [
            { name: 'host', hostPath: { path: '/var/../etc', type: 'Folder' } },
            { name: 'sec', secret: { defaultMode: 0o1777, items: [{ key: '', path: '/abs' }, { key: 'k', path: '..hidden', mode: -1 }] } },
            { name: 'cm', configMap: { items: [{ key: 'k', path: 'a/../../b' }] } },
            { name: 'share', nfs: { server: 'nfs.local', path: 'relative' } },
            { name: 'claim', persistentVolumeClaim: { claimName: '' } },
            { name: 'both', emptyDir: {}, cephfs: { monitors: ['m'] }, downwardAPI: {} },
          ],
          containers: [app()],
        },
        [
          "spec.volumes[0].hostPath.path: Invalid value: \"/var/../etc\": must not contain '..'",
          'spec.volumes[0].hostPath.type: Unsupported value: "Folder": supported values: "", "BlockDevice", "CharDevice", "Directory", "DirectoryOrCreate", "File", "FileOrCreate", "Socket"',
          'spec.volumes[1].secret.secretName: Required value',
          'spec.volumes[1].secret.defaultMode: Invalid value: 1023: must be a number between 0 and 0777 (octal), both inclusive',
          'spec.volumes[1].secret.items[0].key: Required value',
          'spec.volumes[1].secret.items[0].path: Invalid value: "/abs": must be a relative path',
          "spec.volumes[1].secret.items[1].path: Invalid value: \"..hidden\": must not start with '..'",
          'spec.volumes[1].secret.items[1].mode: Invalid value: -1: must be a number between 0 and 0777 (octal), both inclusive',
          'spec.volumes[2].configMap.name: Required value',
          "spec.volumes[2].configMap.items[0].path: Invalid value: \"a/../../b\": must not contain '..'",
          'spec.volumes[3].nfs.path: Invalid value: "relative": must be an absolute path',
          'spec.volumes[4].persistentVolumeClaim.claimName: Required value',
          'spec.volumes[5].cephFS: Forbidden: may not specify more than 1 volume type',
          'spec.volumes[5].downwarAPI: Forbidden: may not specify more than 1 volume type',
        ],
      ],
      [
        {
          volumes: [
            {
              name: 'proj',
              projected: {
                sources: [
                  { secret: { name: 's', items: [{ key: 'a', path: 'same' }] }, configMap: { name: 'c', items: [{ key: 'b', path: 'same' }] } },
                  { serviceAccountToken: { path: '', expirationSeconds: 60 } },
                  { downwardAPI: { items: [{ path: 'labels', fieldRef: { apiVersion: 'v1', fieldPath: 'spec.nodeName' } }, { path: 'cpu', resourceFieldRef: { resource: 'limits.cpu' } }] } },
                ],
              },
            },
            { name: 'driver', csi: { driver: 'Not A Driver' } },
          ],
          containers: [app()],
        },
        [
          'spec.volumes[0].projected: Invalid value: "c": conflicting duplicate paths',
          'spec.volumes[0].projected.sources[0]: Forbidden: may not specify more than 1 volume type per source',
          'spec.volumes[0].projected.sources[1].serviceAccountToken.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes',
          'spec.volumes[0].projected.path: Required value',
          'spec.volumes[0].projected.sources[2].downwardAPI.fieldRef.fieldPath: Unsupported value: "spec.nodeName": supported values: "metadata.annotations", "metadata.labels", "metadata.name", "metadata.namespace", "metadata.uid"',
          'spec.volumes[0].projected.sources[2].downwardAPI.resourceFieldRef.containerName: Required value',
          /^spec\.volumes\[1\]\.csi\.driver: Invalid value: "Not A Driver": a lowercase RFC 1123 subdomain must consist of/,
        ],
      ],
      [
        {
          volumes: [{ name: 'data', emptyDir: {} }, { name: 'disk', persistentVolumeClaim: { claimName: 'c' } }],
          containers: [
            app({
              volumeMounts: [
                { name: 'data', mountPath: '/data', subPath: '../up', mountPropagation: 'Bidirectional' },
                { name: 'data', mountPath: '/ro', recursiveReadOnly: 'Enabled' },
                { name: 'disk', mountPath: '/dev/xvda' },
              ],
              volumeDevices: [{ name: 'data', devicePath: '/dev/xvda' }, { name: 'missing', devicePath: '/dev/../sdb' }],
            }),
          ],
        },
        [
          'spec.containers[0].volumeMounts[0].name: Invalid value: "data": must not already exist in volumeDevices',
          "spec.containers[0].volumeMounts.subPath: Invalid value: \"../up\": must not contain '..'",
          'spec.containers[0].volumeMounts.mountPropagation: Forbidden: Bidirectional mount propagation is available only to privileged containers',
          'spec.containers[0].volumeMounts[1].name: Invalid value: "data": must not already exist in volumeDevices',
          'spec.containers[0].volumeMounts.recursiveReadOnly: Forbidden: may only be specified when readOnly is true',
          'spec.containers[0].volumeMounts[2].mountPath: Invalid value: "/dev/xvda": must not already exist as a path in volumeDevices',
          'spec.containers[0].volumeDevices[0].name: Invalid value: "data": can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode',
          'spec.containers[0].volumeDevices[0].name: Invalid value: "data": must not already exist in volumeMounts',
          'spec.containers[0].volumeDevices[0].devicePath: Invalid value: "/dev/xvda": must not already exist as a path in volumeMounts',
          'spec.containers[0].volumeDevices[1].name: Not found: "missing"',
          "spec.containers[0].volumeDevices[1].devicePath: Invalid value: \"/dev/../sdb\": can not contain backsteps ('..')",
        ],
      ],
      [
        {
          containers: [
            app({
              env: [
                { name: 'A', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'status.phase' } } },
                { name: 'B', valueFrom: { fieldRef: { apiVersion: 'v2', fieldPath: 'metadata.name' } } },
                { name: 'C', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: "metadata.labels['bad key!']" } } },
                { name: 'D', valueFrom: { resourceFieldRef: { resource: 'limits.gpu' } } },
                { name: 'E', valueFrom: { resourceFieldRef: { resource: 'limits.memory', divisor: '3' } } },
                { name: 'F', valueFrom: { configMapKeyRef: { name: 'Bad_Name', key: 'bad/key' } } },
                { name: 'G', valueFrom: { secretKeyRef: { name: 's' } } },
              ],
              envFrom: [{ configMapRef: { name: 'Bad_Ref' } }],
            }),
          ],
        },
        [
          'spec.containers[0].env[0].valueFrom.fieldRef.fieldPath: Unsupported value: "status.phase": supported values: "metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName", "spec.serviceAccountName", "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs"',
          'spec.containers[0].env[1].valueFrom.fieldRef.fieldPath: Invalid value: "metadata.name": error converting fieldPath: unsupported pod version: v2',
          /^spec\.containers\[0\]\.env\[2\]\.valueFrom\.fieldRef: Invalid value: "bad key!": name part must consist of/,
          'spec.containers[0].env[3].valueFrom.resourceFieldRef.resource: Unsupported value: "limits.gpu": supported values: "limits.cpu", "limits.ephemeral-storage", "limits.memory", "requests.cpu", "requests.ephemeral-storage", "requests.memory"',
          "spec.containers[0].env[4].valueFrom.resourceFieldRef.divisor: Invalid value: \"limits.memory\": only divisor's values 1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei are supported with the memory resource",
          /^spec\.containers\[0\]\.env\[5\]\.valueFrom\.configMapKeyRef\.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain must consist of/,
          /^spec\.containers\[0\]\.env\[5\]\.valueFrom\.configMapKeyRef\.key: Invalid value: "bad\/key": a valid config key must consist of alphanumeric characters/,
          'spec.containers[0].env[6].valueFrom.secretKeyRef.key: Required value',
          /^spec\.containers\[0\]\.envFrom\[0\]\.configMapRef\.name: Invalid value: "Bad_Ref": a lowercase RFC 1123 subdomain must consist of/,
        ],
      ],
    ];
    for (const [spec, messages] of cases) {
      const got = await refused(spec);
      expect(got, JSON.stringify(spec)).toHaveLength(messages.length);
      messages.forEach((m, i) => (typeof m === 'string' ? expect(got[i], JSON.stringify(got)).toBe(m) : expect(got[i], JSON.stringify(got)).toMatch(m)));
    }
  });

  it("judges a field the schema lists as required but kube decodes as zero as kube does, in pods and in other kinds' templates", async () => {
    // kube's decoding leaves a missing lun, sleep or secretRef at zero; its validation allows those.
    const allowed = {
      containers: [app({ lifecycle: { preStop: { sleep: {} } } })],
      volumes: [
        { name: 'disk', iscsi: { targetPortal: '10.0.0.1:3260', iqn: 'iqn.2001-04.com.example:storage' } },
        { name: 'sio', scaleIO: { gateway: 'g', system: 's', volumeName: 'v' } },
      ],
    };
    const pod = await req(server, 'POST', PODS, { metadata: { name: `p${n++}` }, spec: allowed });
    expect(pod.status, JSON.stringify(pod.body)).toBe(201);
    // Written back as kube writes its Go zero value.
    expect(pod.body.spec.volumes[0].iscsi.lun).toBe(0);
    expect(pod.body.spec.containers[0].lifecycle.preStop.sleep).toEqual({ seconds: 0 });
    // A missing number its validation refuses gets that refusal alone, not a schema "Required value" beside it.
    expect(await refused({ containers: [app({ livenessProbe: { tcpSocket: {} } })], topologySpreadConstraints: [{ topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule' }] })).toEqual([
      'spec.containers[0].livenessProbe.tcpSocket.port: Invalid value: 0: must be between 1 and 65535, inclusive',
      'spec.topologySpreadConstraints[0].maxSkew: Invalid value: 0: must be greater than zero',
    ]);
    const deployment = (name: string, spec: Record<string, unknown>) => ({
      metadata: { name },
      spec: { selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec } },
    });
    const ok = await req(server, 'POST', '/apis/apps/v1/namespaces/default/deployments', deployment('zeros', allowed));
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    // The Deployment's own required fields are still the schema's to enforce (kube's ValidateDeploymentSpec says so).
    const noSelector = await req(server, 'POST', '/apis/apps/v1/namespaces/default/deployments', { metadata: { name: 'bare' }, spec: { template: { spec: allowed } } });
    expect(noSelector.body.details.causes).toContainEqual({ reason: 'FieldValueRequired', message: 'Required value', field: 'spec.selector' });
  });

  it("checks the pod-specific annotations (mirror, deletion cost, seccomp and AppArmor) and that they agree with the fields", async () => {
    const refusedWith = async (annotations: Record<string, string>, spec: Record<string, unknown>) => {
      const res = await req(server, 'POST', PODS, { metadata: { name: `a${n++}`, annotations }, spec });
      expect(res.status, JSON.stringify(res.body)).toBe(422);
      return (res.body.details.causes as { field: string; message: string }[]).map((c) => `${c.field}: ${c.message}`);
    };
    expect(
      await refusedWith(
        {
          'kubernetes.io/config.mirror': 'x',
          'controller.kubernetes.io/pod-deletion-cost': '007',
          'seccomp.security.alpha.kubernetes.io/pod': 'bogus',
          'container.seccomp.security.alpha.kubernetes.io/app': 'localhost/../etc/profile.json',
          'container.apparmor.security.beta.kubernetes.io/nope': 'runtime/default',
          'container.apparmor.security.beta.kubernetes.io/app': 'bogus',
        },
        { containers: [app()] },
      ),
    ).toEqual([
      'metadata.annotations[kubernetes.io/config.mirror]: Invalid value: "x": must set spec.nodeName if mirror pod annotation is set',
      'metadata.annotations[controller.kubernetes.io/pod-deletion-cost]: Invalid value: "007": must be a 32bit integer',
      'metadata.annotations.seccomp.security.alpha.kubernetes.io/pod: Invalid value: "bogus": must be a valid seccomp profile',
      "metadata.annotations.container.seccomp.security.alpha.kubernetes.io/app: Invalid value: \"../etc/profile.json\": must not contain '..'",
      'metadata.annotations[container.apparmor.security.beta.kubernetes.io/app]: Invalid value: "bogus": invalid AppArmor profile name: "bogus"',
      'metadata.annotations[container.apparmor.security.beta.kubernetes.io/nope]: Invalid value: "nope": container not found',
    ]);
    expect(
      await refusedWith(
        { 'seccomp.security.alpha.kubernetes.io/pod': 'unconfined', 'container.apparmor.security.beta.kubernetes.io/app': 'localhost/one' },
        { securityContext: { seccompProfile: { type: 'RuntimeDefault' } }, containers: [app({ securityContext: { appArmorProfile: { type: 'Localhost', localhostProfile: 'two' } } })] },
      ),
    ).toEqual([
      'spec.securityContext.seccompProfile.type: Forbidden: seccomp type in annotation and field must match',
      'spec.containers[0].securityContext.appArmorProfile.localhostProfile: Forbidden: apparmor profile in annotation and field must match',
    ]);
    // Annotations that agree with the fields, and well-formed ones, are fine.
    const ok = await req(server, 'POST', PODS, {
      metadata: {
        name: 'annotated',
        annotations: { 'controller.kubernetes.io/pod-deletion-cost': '-5', 'seccomp.security.alpha.kubernetes.io/pod': 'runtime/default', 'container.apparmor.security.beta.kubernetes.io/app': 'localhost/profile' },
      },
      spec: { securityContext: { seccompProfile: { type: 'RuntimeDefault' } }, containers: [app({ securityContext: { appArmorProfile: { type: 'Localhost', localhostProfile: 'profile' } } })] },
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
  });

  it("accepts a pod using them well, and merges matchLabelKeys into the affinity term's selector as kube 1.33 does", async () => {
    const res = await req(server, 'POST', PODS, {
      metadata: { name: 'well-placed', labels: { app: 'web', 'pod-template-hash': 'abc12', tier: 'front' } },
      spec: {
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/os', operator: 'In', values: ['linux'] }] }, { matchFields: [{ key: 'metadata.name', operator: 'NotIn', values: ['node-1'] }] }] },
            preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 50, preference: { matchExpressions: [{ key: 'zone', operator: 'In', values: ['any value is fine here!'] }] } }],
          },
          podAntiAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { app: 'web' } }, matchLabelKeys: ['pod-template-hash', 'absent'], mismatchLabelKeys: ['tier'], topologyKey: 'kubernetes.io/hostname' }],
          },
        },
        securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' }, sysctls: [{ name: 'net.ipv4.ip_local_port_range', value: '1024 65535' }], fsGroupChangePolicy: 'OnRootMismatch' },
        hostAliases: [{ ip: '10.1.2.3', hostnames: ['db.local'] }],
        os: { name: 'linux' },
        preemptionPolicy: 'Never',
        containers: [app({ securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, readOnlyRootFilesystem: true } })],
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    // Volumes and environment of every common kind, used well.
    const wellMounted = await req(server, 'POST', PODS, {
      metadata: { name: 'well-mounted', labels: { app: 'web' } },
      spec: {
        volumes: [
          { name: 'cfg', configMap: { name: 'settings', defaultMode: 0o644, items: [{ key: 'app.yaml', path: 'conf/app.yaml', mode: 0o600 }] } },
          { name: 'creds', secret: { secretName: 'db', optional: true } },
          {
            name: 'bundle',
            projected: {
              sources: [
                { serviceAccountToken: { path: 'token', expirationSeconds: 3600, audience: 'vault' } },
                { downwardAPI: { items: [{ path: 'labels', fieldRef: { fieldPath: "metadata.labels['app']" } }] } },
                { configMap: { name: 'ca', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
              ],
            },
          },
          { name: 'info', downwardAPI: { items: [{ path: 'mem', resourceFieldRef: { containerName: 'app', resource: 'limits.memory', divisor: '1Mi' } }] } },
          { name: 'store', csi: { driver: 'secrets-store.csi.k8s.io', readOnly: true, nodePublishSecretRef: { name: 'creds' } } },
          { name: 'scratch', ephemeral: { volumeClaimTemplate: { metadata: { labels: { tier: 'cache' } }, spec: { accessModes: ['ReadWriteOnce'], volumeMode: 'Block', resources: { requests: { storage: '1Gi' } } } } } },
          { name: 'logs', hostPath: { path: '/var/log/app', type: 'DirectoryOrCreate' } },
          { name: 'tmp', emptyDir: { medium: 'Memory', sizeLimit: '64Mi' } },
        ],
        containers: [
          app({
            env: [
              { name: 'POD_IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } },
              { name: 'APP', valueFrom: { fieldRef: { fieldPath: "metadata.labels['app']" } } },
              { name: 'CPU', valueFrom: { resourceFieldRef: { resource: 'requests.cpu', divisor: '1m' } } },
              { name: 'LEVEL', valueFrom: { configMapKeyRef: { name: 'settings', key: 'log.level' } } },
            ],
            envFrom: [{ prefix: 'DB_', secretRef: { name: 'db' } }],
            volumeMounts: [
              { name: 'cfg', mountPath: '/etc/app', readOnly: true, recursiveReadOnly: 'IfPossible' },
              { name: 'creds', mountPath: '/secrets', subPath: 'db' },
              { name: 'bundle', mountPath: '/var/run/bundle' },
              { name: 'info', mountPath: '/etc/info' },
              { name: 'store', mountPath: '/mnt/store' },
              { name: 'logs', mountPath: '/logs', subPathExpr: '$(POD_IP)' },
              { name: 'tmp', mountPath: '/tmp', mountPropagation: 'None' },
            ],
            volumeDevices: [{ name: 'scratch', devicePath: '/dev/xvdb' }],
            resources: { limits: { memory: '256Mi' } },
          }),
        ],
      },
    });
    expect(wellMounted.status, JSON.stringify(wellMounted.body)).toBe(201);
    expect(res.body.spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].labelSelector).toEqual({
      matchLabels: { app: 'web' },
      matchExpressions: [
        { key: 'pod-template-hash', operator: 'In', values: ['abc12'] },
        { key: 'tier', operator: 'NotIn', values: ['front'] },
      ],
    });
  });

  it('lets an update change images, labels, added tolerations and a shorter deadline, and nothing else of the spec', async () => {
    const created = await req(server, 'POST', PODS, { metadata: { name: 'web' }, spec: { activeDeadlineSeconds: 600, containers: [app({ ports: [{ containerPort: 80 }] })] } });
    expect(created.status).toBe(201);
    const ok = await req(server, 'PATCH', `${PODS}/web`, {
      metadata: { labels: { tier: 'web' } },
      spec: { activeDeadlineSeconds: 300, containers: [{ name: 'app', image: 'nginx:1.27' }], tolerations: [{ key: 'k', operator: 'Exists' }] },
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.spec.containers[0].image).toBe('nginx:1.27');
    const forbidden =
      'spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,' +
      '`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)';
    const refusals: [Record<string, unknown>, string[]][] = [
      [{ containers: [{ name: 'app', ports: [{ containerPort: 8080 }] }] }, [forbidden]],
      [{ nodeName: 'node-1' }, [forbidden]],
      // kube's own refusals for what may change, but not so.
      [{ activeDeadlineSeconds: 900 }, ['spec.activeDeadlineSeconds: Invalid value: 900: must be less than or equal to previous value']],
      [{ schedulingGates: [{ name: 'example.com/late' }] }, ["spec.schedulingGates[0].name: Forbidden: only deletion is allowed, but found new scheduling gate 'example.com/late'"]],
      [{ containers: [{ name: 'app', image: ' nginx:1.28 ' }] }, ['spec.containers[0].image: Invalid value: " nginx:1.28 ": must not have leading or trailing whitespace', 'spec.containers[0].image: Invalid value: " nginx:1.28 ": must not have leading or trailing whitespace']],
      [{ containers: [{ name: 'app' }, { name: 'second', image: 'nginx' }] }, ['spec.containers: Forbidden: pod updates may not add or remove containers']],
    ];
    for (const [patch, expected] of refusals) {
      const res = await req(server, 'PATCH', `${PODS}/web`, { spec: patch });
      expect(res.status, JSON.stringify(patch)).toBe(422);
      expect(res.body.details.causes.map((c: any) => `${c.field}: ${c.message}`), JSON.stringify(patch)).toEqual(expected);
    }
    // kube's message says each error once.
    const padded = await req(server, 'PATCH', `${PODS}/web`, { spec: { containers: [{ name: 'app', image: 'nginx ' }] } });
    expect(padded.body.message).toBe('Pod "web" is invalid: spec.containers[0].image: Invalid value: "nginx ": must not have leading or trailing whitespace');
    // A pod's image is unpadded from the start (a template's need not be: kube keeps " " for some templates' use).
    expect(await refused({ containers: [app({ image: 'nginx\t' })] })).toEqual(['spec.containers[0].image: Invalid value: "nginx\\t": must not have leading or trailing whitespace']);
    // Tolerations cannot be removed.
    const untolerated = (await req(server, 'GET', `${PODS}/web`)).body;
    delete untolerated.spec.tolerations;
    const removed = await req(server, 'PUT', `${PODS}/web`, untolerated);
    expect(removed.body.details.causes.map((c: any) => `${c.field}: ${c.message}`)).toEqual(['spec.tolerations: Forbidden: existing toleration can not be modified except its tolerationSeconds']);
    // The deadline cannot be dropped once set.
    const current = (await req(server, 'GET', `${PODS}/web`)).body;
    delete current.spec.activeDeadlineSeconds;
    const dropped = await req(server, 'PUT', `${PODS}/web`, current);
    expect(dropped.body.details.causes.map((c: any) => `${c.field}: ${c.message}`)).toEqual(['spec.activeDeadlineSeconds: Invalid value: "null": must not update from a positive integer to nil value']);
    // A gated pod may get node selectors and required node affinity requirements added, but not changed.
    const gated = {
      metadata: { name: 'gated-web' },
      spec: {
        schedulingGates: [{ name: 'example.com/wait' }],
        nodeSelector: { disk: 'ssd' },
        affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] }] } } },
        containers: [app()],
      },
    };
    expect((await req(server, 'POST', PODS, gated)).status).toBe(201);
    const terms = (...expressions: unknown[]) => ({ nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: expressions }] } } });
    const zoneA = { key: 'zone', operator: 'In', values: ['a'] };
    const narrowed = await req(server, 'PATCH', `${PODS}/gated-web`, { spec: { nodeSelector: { gpu: 'yes' }, affinity: terms(zoneA, { key: 'rack', operator: 'Exists' }), schedulingGates: null } });
    expect(narrowed.status, JSON.stringify(narrowed.body)).toBe(200);
    expect(narrowed.body.spec.nodeSelector).toEqual({ disk: 'ssd', gpu: 'yes' });
    const regated = { metadata: { name: 'gated-2' }, spec: { ...gated.spec } };
    expect((await req(server, 'POST', PODS, regated)).status).toBe(201);
    const changed = await req(server, 'PATCH', `${PODS}/gated-2`, { spec: { nodeSelector: { disk: 'hdd' }, affinity: terms({ key: 'zone', operator: 'In', values: ['b'] }) } });
    expect(changed.body.details.causes.map((c: any) => `${c.field}: ${c.message}`)).toEqual([
      'spec.nodeSelector: Invalid value: map[string]string{"disk":"hdd"}: only additions to spec.nodeSelector are allowed (no mutations or deletions)',
      expect.stringMatching(/^spec\.affinity\.nodeAffinity\.requiredDuringSchedulingIgnoredDuringExecution\.nodeSelectorTerms\[0\]: Invalid value: .*: only additions are allowed \(no mutations or deletions\)$/),
    ]);
    // The status subresource does not judge the spec.
    const status = await req(server, 'PATCH', `${PODS}/web/status`, { status: { phase: 'Running' } });
    expect(status.status).toBe(200);
  });

  it("sets a new pod's QoS class as kube computes it", async () => {
    const qos = async (containers: unknown[], initContainers: unknown[] = [], status?: unknown) => {
      const res = await req(server, 'POST', PODS, { metadata: { name: `qos${n++}` }, spec: { containers, initContainers }, status });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.status.qosClass;
    };
    const both = { cpu: '500m', memory: '128Mi' };
    expect(await qos([app()])).toBe('BestEffort');
    // Limits alone are defaulted into requests: Guaranteed.
    expect(await qos([app({ resources: { limits: both } })])).toBe('Guaranteed');
    expect(await qos([app({ resources: { limits: { cpu: '0.5', memory: '134217728' }, requests: both } })])).toBe('Guaranteed');
    expect(await qos([app({ resources: { requests: both } })])).toBe('Burstable');
    expect(await qos([app({ resources: { limits: { cpu: '1' } } })])).toBe('Burstable');
    // Only cpu and memory count; every container, init containers too, must be limited for Guaranteed.
    expect(await qos([app({ resources: { limits: { 'ephemeral-storage': '1Gi' } } })])).toBe('BestEffort');
    expect(await qos([app({ resources: { limits: both } })], [{ name: 'init', image: 'busybox' }])).toBe('Burstable');
    expect(await qos([app({ resources: { limits: both, requests: { cpu: '250m', memory: '128Mi' } } })])).toBe('Burstable');
    // kube's GetPodQOS keeps a class the client's status names.
    expect(await qos([app()], [], { qosClass: 'Guaranteed' })).toBe('Guaranteed');
  });

  it('marks a new pod held by scheduling gates with the PodScheduled=False SchedulingGated condition, as kube does', async () => {
    const gated = await req(server, 'POST', PODS, { metadata: { name: 'gated' }, spec: { schedulingGates: [{ name: 'example.com/wait' }], containers: [app()] } });
    expect(gated.status).toBe(201);
    expect(gated.body.status).toEqual({
      phase: 'Pending',
      conditions: [
        { type: 'PodScheduled', status: 'False', reason: 'SchedulingGated', message: 'Scheduling is blocked due to non-empty scheduling gates' },
      ],
      qosClass: 'BestEffort',
    });
    // Conditions a client sends are not kept on create; an ungated pod has none.
    const plain = await req(server, 'POST', PODS, { metadata: { name: 'ungated' }, spec: { containers: [app()] }, status: { conditions: [{ type: 'Ready', status: 'True' }] } });
    expect(plain.body.status).toEqual({ phase: 'Pending', qosClass: 'BestEffort' });
  });

  it('adds ephemeral containers through their subresource only, checked as kube checks them, and never changes or removes one', async () => {
    const base = { metadata: { name: 'debugged' }, spec: { containers: [app()] } };
    expect((await req(server, 'POST', PODS, base)).status).toBe(201);
    const EPHEMERAL = `${PODS}/debugged/ephemeralcontainers`;
    const causes = (res: { body: any }) => (res.body.details?.causes ?? []).map((c: any) => `${c.field}: ${c.message}`);
    // The main resource cannot add one.
    const viaPod = await req(server, 'PATCH', `${PODS}/debugged`, { spec: { ephemeralContainers: [{ name: 'dbg', image: 'busybox' }] } });
    expect(viaPod.status).toBe(422);
    expect(causes(viaPod)[0]).toMatch(/^spec: Forbidden: pod updates may not change fields other than/);
    // The subresource adds one, and takes nothing else from the client.
    const added = await req(server, 'PATCH', EPHEMERAL, { spec: { ephemeralContainers: [{ name: 'dbg', image: 'busybox', targetContainerName: 'app' }], nodeName: 'elsewhere' } });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(added.body.spec.ephemeralContainers.map((c: any) => c.name)).toEqual(['dbg']);
    expect(added.body.spec.nodeName).toBeUndefined();
    expect((await req(server, 'GET', EPHEMERAL)).body.spec.ephemeralContainers[0]).toMatchObject({ name: 'dbg', terminationMessagePolicy: 'File' });
    const refusedEphemeral = await req(server, 'PATCH', EPHEMERAL, {
      spec: {
        ephemeralContainers: [
          {
            name: 'app',
            image: 'busybox',
            targetContainerName: 'nope',
            ports: [{ containerPort: 80 }],
            resources: { limits: { cpu: '1' } },
            livenessProbe: { exec: { command: ['true'] } },
            volumeMounts: [{ name: 'data', mountPath: '/d', subPath: 'x' }],
          },
        ],
      },
    });
    expect(refusedEphemeral.status).toBe(422);
    expect(causes(refusedEphemeral)).toEqual([
      'spec.ephemeralContainers[0].volumeMounts[0].name: Not found: "data"',
      'spec.ephemeralContainers[0].name: Duplicate value: "app"',
      'spec.ephemeralContainers[0].targetContainerName: Not found: "nope"',
      'spec.ephemeralContainers[0].ports: Forbidden: cannot be set for an Ephemeral Container',
      'spec.ephemeralContainers[0].resources: Forbidden: cannot be set for an Ephemeral Container',
      'spec.ephemeralContainers[0].livenessProbe: Forbidden: cannot be set for an Ephemeral Container',
      'spec.ephemeralContainers[0].volumeMounts[0].subPath: Forbidden: cannot be set for an Ephemeral Container',
    ]);
    const current = (await req(server, 'GET', EPHEMERAL)).body;
    const removed = await req(server, 'PUT', EPHEMERAL, { ...current, spec: { ...current.spec, ephemeralContainers: [] } });
    expect(causes(removed)).toEqual(['spec.ephemeralContainers: Forbidden: existing ephemeral containers "dbg" may not be removed\n']);
    const changed = structuredClone(current);
    changed.spec.ephemeralContainers[0].image = 'alpine';
    expect(causes(await req(server, 'PUT', EPHEMERAL, changed))).toEqual(['spec.ephemeralContainers: Forbidden: existing ephemeral containers "dbg" may not be changed\n']);
    // Counted in the request metrics under its subresource, as kube counts it.
    const { values } = await server.metrics.registry.getSingleMetric('apiserver_request_total')!.get();
    const counted = values.filter((v) => v.labels.resource === 'pods' && v.labels.subresource === 'ephemeralcontainers');
    expect(counted.map((v) => `${v.labels.verb} ${v.labels.code}`).sort()).toEqual(['GET 200', 'PATCH 200', 'PATCH 422', 'PUT 422']);
    // A static (mirror) pod takes none.
    const mirror = { metadata: { name: 'static', annotations: { 'kubernetes.io/config.mirror': 'x' } }, spec: { nodeName: 'node-1', containers: [app()] } };
    expect((await req(server, 'POST', PODS, mirror)).status).toBe(201);
    const onMirror = await req(server, 'PATCH', `${PODS}/static/ephemeralcontainers`, { spec: { ephemeralContainers: [{ name: 'dbg', image: 'busybox' }] } });
    // kube's field.NewPath(""): an empty field, printed before the colon.
    expect(onMirror.body.message).toBe('Pod "static" is invalid: : Forbidden: static pods do not support ephemeral containers');
  });

  it("resizes containers' cpu and memory in place through the resize subresource only, refused as kube refuses", async () => {
    const resources = (cpu: string, memory: string, limits: Record<string, string> = { cpu, memory }) => ({ requests: { cpu, memory }, limits });
    const sized = {
      metadata: { name: 'sized', labels: { app: 'sized' } },
      spec: {
        initContainers: [app({ name: 'side', restartPolicy: 'Always', resources: resources('100m', '64Mi') }), app({ name: 'init', resources: resources('100m', '64Mi') })],
        containers: [app({ resources: resources('200m', '128Mi') })],
      },
    };
    const created = await req(server, 'POST', PODS, sized);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.status.qosClass).toBe('Guaranteed');
    const RESIZE = `${PODS}/sized/resize`;
    const causes = (res: { body: any }) => (res.body.details?.causes ?? []).map((c: any) => `${c.field}: ${c.message}`);
    const containers = (app: unknown, side = resources('150m', '96Mi')) => ({ spec: { initContainers: [{ name: 'side', resources: side }], containers: [{ name: 'app', resources: app }] } });

    // The main resource cannot change resources.
    const viaPod = await req(server, 'PATCH', `${PODS}/sized`, containers(resources('300m', '256Mi')));
    expect(causes(viaPod)[0]).toMatch(/^spec: Forbidden: pod updates may not change fields other than/);
    // The subresource takes the containers' cpu and memory and nothing else; a sidecar's too.
    const resized = await req(server, 'PATCH', RESIZE, { ...containers(resources('300m', '256Mi'), resources('150m', '96Mi')), metadata: { labels: { app: 'other' } } });
    expect(resized.status, JSON.stringify(resized.body)).toBe(200);
    expect(resized.body.spec.containers[0].resources).toEqual(resources('300m', '256Mi'));
    expect(resized.body.spec.initContainers[0].resources).toEqual(resources('150m', '96Mi'));
    expect(resized.body.metadata.labels).toEqual({ app: 'sized' });
    expect(resized.body.metadata.generation).toBe(2);
    expect(resized.body.metadata.managedFields.map((f: any) => f.subresource ?? '')).toContain('resize');
    expect((await req(server, 'GET', RESIZE)).body.spec.containers[0].resources.limits.cpu).toBe('300m');
    expect((await req(server, 'GET', `${PODS}/sized`)).body.spec.containers[0].resources.limits.memory).toBe('256Mi');
    // A dry run stores nothing.
    const dry = await req(server, 'PATCH', `${RESIZE}?dryRun=All`, containers(resources('400m', '512Mi')));
    expect(dry.status, JSON.stringify(dry.body)).toBe(200);
    expect(dry.body.spec.containers[0].resources.limits.cpu).toBe('400m');
    expect((await req(server, 'GET', RESIZE)).body.spec.containers[0].resources.limits.cpu).toBe('300m');

    // What kube refuses, with its messages.
    const refusals: [unknown, string[]][] = [
      // Guaranteed to Burstable.
      [containers({ requests: { cpu: '100m', memory: '256Mi' }, limits: { cpu: '300m', memory: '256Mi' } }), ['spec: Invalid value: "Guaranteed": Pod QOS Class may not change as a result of resizing']],
      [containers(resources('300m', '128Mi')), ['spec.containers[0].resources.limits[memory]: Forbidden: memory limits cannot be decreased unless resizePolicy is RestartContainer']],
      [containers(resources('300m', '256Mi', { cpu: '300m', memory: '256Mi', 'example.com/gpu': '1' })), ['spec: Forbidden: only cpu and memory resources are mutable']],
      [containers(resources('300m', '256Mi'), resources('150m', '96Mi', { cpu: '150m', memory: '96Mi', 'example.com/gpu': '1' })), ['spec: Forbidden: only cpu and memory resources for sidecar containers are mutable']],
      [{ spec: { initContainers: [{ name: 'init', resources: resources('200m', '64Mi') }] } }, ['spec: Forbidden: resources for non-sidecar init containers are immutable']],
      [{ spec: { containers: [{ name: 'app', resizePolicy: [{ resourceName: 'cpu', restartPolicy: 'RestartContainer' }] }] } }, ['spec: Forbidden: only cpu and memory resources are mutable']],
      [{ spec: { containers: [{ name: 'app', resources: { limits: { cpu: '2', memory: null }, requests: { cpu: '2', memory: null } } }] } }, ['spec.containers[0].resources.requests: Forbidden: resource requests cannot be removed', 'spec.containers[0].resources.limits: Forbidden: resource limits cannot be removed', 'spec: Invalid value: "Guaranteed": Pod QOS Class may not change as a result of resizing'].sort()],
    ];
    for (const [patch, expected] of refusals) {
      const res = await req(server, 'PATCH', RESIZE, patch);
      expect(res.status, JSON.stringify(res.body)).toBe(422);
      expect(causes(res).sort(), JSON.stringify(patch)).toEqual(expected);
    }
    // A container added or renamed through the subresource (a PUT replaces the list) is refused, not taken.
    const current = (await req(server, 'GET', RESIZE)).body;
    const renamed = structuredClone(current);
    renamed.spec.containers[0].name = 'other';
    expect(causes(await req(server, 'PUT', RESIZE, renamed))).toContain('spec: Forbidden: only cpu and memory resources are mutable');
    const added = structuredClone(current);
    added.spec.containers.push({ ...current.spec.containers[0], name: 'second' });
    expect(causes(await req(server, 'PUT', RESIZE, added))).toContain('spec: Forbidden: only cpu and memory resources are mutable');
    expect((await req(server, 'GET', RESIZE)).body.spec.containers.map((c: any) => c.name)).toEqual(['app']);
    // With a RestartContainer memory policy, memory limits may come down.
    const restarting = { metadata: { name: 'restarting' }, spec: { containers: [app({ resizePolicy: [{ resourceName: 'memory', restartPolicy: 'RestartContainer' }], resources: resources('1', '1Gi') })] } };
    expect((await req(server, 'POST', PODS, restarting)).status).toBe(201);
    const lowered = await req(server, 'PATCH', `${PODS}/restarting/resize`, { spec: { containers: [{ name: 'app', resources: resources('1', '512Mi') }] } });
    expect(lowered.status, JSON.stringify(lowered.body)).toBe(200);
    // A pod on a node that does not report its running containers' resources cannot be resized.
    const running = await req(server, 'PATCH', `${PODS}/restarting/status`, { status: { containerStatuses: [{ name: 'app', image: 'nginx', imageID: '', ready: true, restartCount: 0, state: { running: {} } }] } });
    expect(running.status, JSON.stringify(running.body)).toBe(200);
    const unsupported = await req(server, 'PATCH', `${PODS}/restarting/resize`, { spec: { containers: [{ name: 'app', resources: resources('2', '512Mi') }] } });
    expect(causes(unsupported)).toEqual(['spec: Forbidden: Pod running on node without support for resize']);
    // Static and Windows pods cannot be resized.
    const windows = { metadata: { name: 'windows' }, spec: { os: { name: 'windows' }, containers: [app({ resources: resources('1', '1Gi') })] } };
    expect((await req(server, 'POST', PODS, windows)).status).toBe(201);
    const onWindows = await req(server, 'PATCH', `${PODS}/windows/resize`, { spec: { containers: [{ name: 'app', resources: resources('2', '2Gi') }] } });
    expect(onWindows.body.message).toBe('Pod "windows" is invalid: : Forbidden: windows pods cannot be resized');
    const mirror = { metadata: { name: 'static-sized', annotations: { 'kubernetes.io/config.mirror': 'x' } }, spec: { nodeName: 'node-1', containers: [app({ resources: resources('1', '1Gi') })] } };
    expect((await req(server, 'POST', PODS, mirror)).status).toBe(201);
    const onMirror = await req(server, 'PATCH', `${PODS}/static-sized/resize`, { spec: { containers: [{ name: 'app', resources: resources('2', '2Gi') }] } });
    expect(onMirror.body.message).toBe('Pod "static-sized" is invalid: : Forbidden: static pods cannot be resized');
  });
});

describe.skipIf(!kubectlBin)('Pod validation through kubectl and the Python client, against the built server', { timeout: 60_000 }, () => {
  let server: ServerProcess;
  const write = manifestWriter('kapi-pods-');
  const { kubectl, ok } = kubectlOf(() => server);
  beforeAll(async () => {
    server = await startServerProcess(['--storage-backend=memory']);
  }, 60_000);
  afterAll(() => server?.stop());

  it("kubectl shows kube's reasons; kubectl set image changes a running pod's image", async () => {
    const bad = write('apiVersion: v1\nkind: Pod\nmetadata: {name: bad}\nspec:\n  containers: [{name: app}]\n  restartPolicy: Sometimes\n');
    const res = await kubectl(kubectlBin!.path, 'create', '-f', bad);
    expect(res.status).toBe(1);
    expect(res.stderr).toContain('The Pod "bad" is invalid:');
    expect(res.stderr).toContain('* spec.containers[0].image: Required value');
    expect(res.stderr).toContain('* spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"');
    await ok(kubectlBin!.path, 'run', 'web', '--image=nginx');
    await ok(kubectlBin!.path, 'set', 'image', 'pod/web', 'web=nginx:1.27');
    expect(await ok(kubectlBin!.path, 'get', 'pod', 'web', '-o', 'jsonpath={.spec.containers[0].image}')).toBe('nginx:1.27');
    const moved = await kubectl(kubectlBin!.path, 'patch', 'pod', 'web', '-p', '{"spec":{"nodeName":"elsewhere"}}');
    expect(moved.stderr).toContain('The Pod "web" is invalid: spec: Forbidden: pod updates may not change fields other than');
    // A Deployment's pod template gets the same affinity and security rules.
    const deployment = write(
      'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: spread}\nspec:\n  selector: {matchLabels: {app: spread}}\n  template:\n    metadata: {labels: {app: spread}}\n    spec:\n' +
        '      containers: [{name: app, image: nginx, securityContext: {seccompProfile: {type: Custom}}}]\n' +
        '      affinity: {podAntiAffinity: {preferredDuringSchedulingIgnoredDuringExecution: [{weight: 0, podAffinityTerm: {labelSelector: {matchLabels: {app: spread}}, topologyKey: zone}}]}}\n',
    );
    const refusedDeployment = await kubectl(kubectlBin!.path, 'apply', '-f', deployment);
    expect(refusedDeployment.status).toBe(1);
    expect(refusedDeployment.stderr).toContain('* spec.template.spec.containers[0].securityContext.seccompProfile.type: Unsupported value: "Custom": supported values: "Localhost", "RuntimeDefault", "Unconfined"');
    expect(refusedDeployment.stderr).toContain('* spec.template.spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 0: must be in the range 1-100');
  });

  it('a privileged DaemonSet is refused as by kube-apiserver with default flags, and accepted with --allow-privileged', async () => {
    const daemonSet = write(
      'apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: agent}\nspec:\n  selector: {matchLabels: {app: agent}}\n  template:\n    metadata: {labels: {app: agent}}\n    spec:\n' +
        '      containers: [{name: agent, image: agent, securityContext: {privileged: true}}]\n',
    );
    const refusedHere = await kubectl(kubectlBin!.path, 'apply', '-f', daemonSet);
    expect(refusedHere.status).toBe(1);
    expect(refusedHere.stderr).toContain('The DaemonSet "agent" is invalid: spec.template.spec.containers[0].securityContext.privileged: Forbidden: disallowed by cluster policy');
    const allowing = await startServerProcess(['--storage-backend=memory', '--allow-privileged']);
    try {
      const { ok: okThere } = kubectlOf(() => allowing);
      expect(await okThere(kubectlBin!.path, 'apply', '-f', daemonSet)).toContain('daemonset.apps/agent created');
      expect(await okThere(kubectlBin!.path, 'get', 'daemonset', 'agent', '-o', 'jsonpath={.spec.template.spec.containers[0].securityContext.privileged}')).toBe('true');
    } finally {
      await allowing.stop();
    }
  });

  it('kubectl debug adds an ephemeral container; a privileged one (--profile=sysadmin) is refused by default', async () => {
    await ok(kubectlBin!.path, 'run', 'debugged', '--image=nginx');
    const debug = await kubectl(kubectlBin!.path, 'debug', 'debugged', '--image=busybox', '--target=debugged', '--container=dbg', '--profile=general');
    expect(debug.status, debug.stderr).toBe(0);
    expect(await ok(kubectlBin!.path, 'get', 'pod', 'debugged', '-o', 'jsonpath={.spec.ephemeralContainers[0].name}/{.spec.ephemeralContainers[0].targetContainerName}')).toBe('dbg/debugged');
    const privileged = await kubectl(kubectlBin!.path, 'debug', 'debugged', '--image=busybox', '--container=root', '--profile=sysadmin');
    expect(privileged.status).toBe(1);
    expect(privileged.stderr).toContain('The Pod "debugged" is invalid: spec.ephemeralContainers[1].securityContext.privileged: Forbidden: disallowed by cluster policy');
  });

  it('kubectl patch --subresource resize and client-node resize a pod in place, kubectl 1.32 and 1.33 alike', async () => {
    const pod = write(
      'apiVersion: v1\nkind: Pod\nmetadata: {name: resizable}\nspec:\n  containers:\n  - name: app\n    image: nginx\n' +
        '    resizePolicy: [{resourceName: memory, restartPolicy: RestartContainer}]\n' +
        '    resources: {requests: {cpu: 100m, memory: 64Mi}, limits: {cpu: 200m, memory: 128Mi}}\n',
    );
    await ok(kubectlBin!.path, 'apply', '-f', pod);
    for (const [i, bin] of kubectlBinaries().entries()) {
      const cpu = `${300 + i * 100}m`;
      await ok(bin.path, 'patch', 'pod', 'resizable', '--subresource', 'resize', '-p', `{"spec":{"containers":[{"name":"app","resources":{"limits":{"cpu":"${cpu}"}}}]}}`);
      expect(await ok(bin.path, 'get', 'pod', 'resizable', '-o', 'jsonpath={.spec.containers[0].resources.limits.cpu}')).toBe(cpu);
    }
    // Without the subresource, kube's refusal.
    const direct = await kubectl(kubectlBin!.path, 'patch', 'pod', 'resizable', '-p', '{"spec":{"containers":[{"name":"app","resources":{"limits":{"cpu":"1"}}}]}}');
    expect(direct.stderr).toContain('spec: Forbidden: pod updates may not change fields other than');
    // kubectl apply --subresource resize; a QoS change is refused.
    const qos = write('apiVersion: v1\nkind: Pod\nmetadata: {name: resizable}\nspec:\n  containers:\n  - name: app\n    image: nginx\n    resources: {requests: {cpu: "1", memory: 128Mi}, limits: {cpu: "1", memory: 128Mi}}\n');
    const refused = await kubectl(kubectlBin!.path, 'apply', '--server-side', '--force-conflicts', '--subresource', 'resize', '-f', qos);
    expect(refused.stderr).toContain('The Pod "resizable" is invalid: spec: Invalid value: "Burstable": Pod QOS Class may not change as a result of resizing');
    // @kubernetes/client-node's generated resize call.
    const kc = new k8s.KubeConfig();
    kc.loadFromFile(server.kubeconfig);
    const core = kc.makeApiClient(k8s.CoreV1Api);
    const patched = await core.patchNamespacedPodResize(
      { name: 'resizable', namespace: 'default', body: { spec: { containers: [{ name: 'app', resources: { requests: { memory: '96Mi' } } }] } } },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.StrategicMergePatch),
    );
    expect(patched.spec?.containers[0].resources?.requests?.memory).toBe('96Mi');
    expect((await core.readNamespacedPodResize({ name: 'resizable', namespace: 'default' })).spec?.containers[0].resources?.requests?.memory).toBe('96Mi');
  });

  it.skipIf(!existsSync(PYTHON))('the Python client: read-modify-replace of image and labels works; other spec changes and a missing image are 422', async () => {
    const res = await runAsync(PYTHON, [join(import.meta.dirname, 'python/pods.py'), server.kubeconfig, 'default']);
    expect(res.stderr).toBe('');
    const out = JSON.parse(res.stdout);
    expect(out).toMatchObject({ image: 'nginx:1.27', labels: { replaced: 'yes' } });
    expect(out.portChange.status).toBe(422);
    expect(out.portChange.message).toMatch(/^Pod "py-pod" is invalid: spec: Forbidden: pod updates may not change fields other than/);
    expect(out.noImage).toEqual({ status: 422, message: 'Pod "py-noimage" is invalid: spec.containers[0].image: Required value', causes: ['spec.containers[0].image: Required value'] });
    expect(out.ephemeral).toEqual(['py-debug']);
    expect(out.ephemeralRemoved.status).toBe(422);
    expect(out.ephemeralRemoved.causes).toEqual(['spec.ephemeralContainers: Forbidden: existing ephemeral containers "py-debug" may not be removed\n']);
  });
});
