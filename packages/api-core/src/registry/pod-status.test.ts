import { createApiServer, type ApiServer } from '@kapi/apiserver';
import { createMemoryBackend } from '@kapi/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCorePlugin } from './plugin.js';

const PODS = '/api/v1/namespaces/default/pods';
const DNS_SUBDOMAIN =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const QUALIFIED_NAME =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const INVALID_IP = 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)';
const NOT_TERMINATED = 'Forbidden: may not be transitioned to non-terminated state';

const running = { running: { startedAt: '2025-01-01T00:00:00Z' } };
const exited = (exitCode: number) => ({ terminated: { exitCode, startedAt: '2025-01-01T00:00:00Z', finishedAt: '2025-01-01T00:01:00Z' } });

describe("pods/status (kube 1.33's ValidatePodStatusUpdate and podStatusStrategy)", () => {
  let server: ApiServer;
  let n = 0;
  const req = async (method: string, path: string, body?: unknown) => {
    const headers = { 'content-type': 'application/json', accept: 'application/json' };
    const res = await server.fetch(new Request(`http://kapi.test${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) }));
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  /** The `field: message` causes of kube's 422. */
  const causes = (res: { status: number; body: any }) => {
    expect(res.status).toBe(422);
    return res.body.details.causes.map((c: { field: string; message: string }) => `${c.field}: ${c.message}`);
  };
  const createPod = async (spec: Record<string, unknown> = {}) => {
    const res = await req('POST', PODS, { metadata: { name: `pod-${n++}` }, spec: { containers: [{ name: 'app', image: 'nginx' }], ...spec } });
    expect(res.body.details?.causes ?? []).toEqual([]);
    expect(res.status).toBe(201);
    return res.body;
  };
  /** A PUT of pods/status with the stored pod's metadata and `status`. */
  const writeStatus = (pod: any, status: Record<string, unknown>) => req('PUT', `${PODS}/${pod.metadata.name}/status`, { metadata: pod.metadata, spec: pod.spec, status });
  const accepted = async (pod: any, status: Record<string, unknown>) => {
    const res = await writeStatus(pod, status);
    expect(res.body.details?.causes ?? []).toEqual([]);
    expect(res.status).toBe(200);
    return res.body;
  };
  const refused = async (pod: any, status: Record<string, unknown>) => causes(await writeStatus(pod, status));

  beforeAll(async () => {
    server = createApiServer({ storage: createMemoryBackend(), plugins: [createCorePlugin()] });
    await server.start();
  });
  afterAll(async () => {
    await server.stop?.();
  });

  it("accepts a kubelet-like write whose containerStatuses leave out image, imageID, ready and restartCount, and conditions without a status, as kube's zero values", async () => {
    const pod = await createPod();
    const stored = await accepted(pod, {
      phase: 'Running',
      qosClass: 'BestEffort',
      conditions: [{ type: 'Ready' }, { type: 'example.com/custom', status: 'True' }],
      containerStatuses: [{ name: 'app', state: running }],
      initContainerStatuses: [{ name: 'init', state: { terminated: {} } }],
      hostIP: '10.0.0.5',
      hostIPs: [{ ip: '10.0.0.5' }],
      podIP: '10.244.0.3',
      podIPs: [{ ip: '10.244.0.3' }, { ip: 'fd00::3' }],
    });
    // Stored and answered with Go's zero values of what the write left out, as kube writes its decoded status back.
    const zeros = { image: '', imageID: '', ready: false, restartCount: 0 };
    expect(stored.status.containerStatuses).toEqual([{ name: 'app', state: running, ...zeros }]);
    expect(stored.status.conditions[0]).toEqual({ type: 'Ready', status: '' });
    expect(stored.status.initContainerStatuses[0].state.terminated.exitCode).toBe(0);
  });

  it('a missing qosClass is the stored one; a different one is refused (the QoS class is immutable)', async () => {
    const pod = await createPod();
    const stored = await accepted(pod, { phase: 'Running' });
    expect(stored.status.qosClass).toBe('BestEffort');
    expect(await refused(stored, { phase: 'Running', qosClass: 'Guaranteed' })).toEqual(['status.qosClass: Invalid value: "Guaranteed": field is immutable']);
  });

  it("checks a condition's type as a qualified name, but for the system's, at kube's path metadata.conditions[i].Type", async () => {
    const pod = await createPod();
    expect(await refused(pod, { qosClass: 'BestEffort', conditions: [{ type: 'Ready', status: 'True' }, { type: 'not valid!', status: 'True' }, { status: 'True' }] })).toEqual([
      `metadata.conditions[1].Type: Invalid value: "not valid!": ${QUALIFIED_NAME}`,
      'metadata.conditions[2].Type: Invalid value: "": name part must be non-empty',
      `metadata.conditions[2].Type: Invalid value: "": ${QUALIFIED_NAME}`,
    ]);
  });

  it('checks a new nominatedNodeName as a node name', async () => {
    const pod = await createPod();
    expect(await refused(pod, { qosClass: 'BestEffort', nominatedNodeName: 'Node_1' })).toEqual([`status.nominatedNodeName: Invalid value: "Node_1": ${DNS_SUBDOMAIN}`]);
  });

  it('keeps a terminated container terminated unless the pod restarts Always (OnFailure: unless it failed)', async () => {
    const never = await accepted(await createPod({ restartPolicy: 'Never' }), { qosClass: 'BestEffort', containerStatuses: [{ name: 'app', state: exited(1) }] });
    expect(await refused(never, { qosClass: 'BestEffort', containerStatuses: [{ name: 'app', state: running }] })).toEqual([`status.containerStatuses[0].state: ${NOT_TERMINATED}`]);

    const onFailure = await createPod({ restartPolicy: 'OnFailure' });
    const failed = await accepted(onFailure, { qosClass: 'BestEffort', containerStatuses: [{ name: 'app', state: exited(1) }] });
    const restarted = await accepted(failed, { qosClass: 'BestEffort', containerStatuses: [{ name: 'app', state: running }] });
    const succeeded = await accepted(restarted, { qosClass: 'BestEffort', containerStatuses: [{ name: 'app', state: exited(0) }] });
    // The old status's index, as kube reports it.
    expect(await refused(succeeded, { qosClass: 'BestEffort', containerStatuses: [{ name: 'other', state: running }, { name: 'app', state: running }] })).toEqual([
      `status.containerStatuses[0].state: ${NOT_TERMINATED}`,
    ]);

    const always = await accepted(await createPod(), { qosClass: 'BestEffort', containerStatuses: [{ name: 'app', state: exited(0) }] });
    await accepted(always, { qosClass: 'BestEffort', containerStatuses: [{ name: 'app', state: running }] });
  });

  it('init containers likewise, but for sidecars; ephemeral containers never restart, whatever the policy', async () => {
    const pod = await createPod({
      restartPolicy: 'Never',
      initContainers: [
        { name: 'setup', image: 'busybox' },
        { name: 'proxy', image: 'envoy', restartPolicy: 'Always' },
      ],
    });
    const done = await accepted(pod, { qosClass: 'BestEffort', initContainerStatuses: [{ name: 'setup', state: exited(0) }, { name: 'proxy', state: exited(0) }] });
    expect(await refused(done, { qosClass: 'BestEffort', initContainerStatuses: [{ name: 'setup', state: running }, { name: 'proxy', state: running }] })).toEqual([
      `status.initContainerStatuses[0].state: ${NOT_TERMINATED}`,
    ]);

    const always = await accepted(await createPod(), { qosClass: 'BestEffort', ephemeralContainerStatuses: [{ name: 'debugger', state: exited(0) }] });
    expect(await refused(always, { qosClass: 'BestEffort', ephemeralContainerStatuses: [{ name: 'debugger', state: { waiting: {} } }] })).toEqual([
      `status.ephemeralContainerStatuses[0].state: ${NOT_TERMINATED}`,
    ]);
  });

  it('checks podIPs: valid IPs, one per family, none twice; an entry without an ip is the empty IP', async () => {
    const pod = await createPod();
    expect(await refused(pod, { qosClass: 'BestEffort', podIPs: [{ ip: 'not-an-ip' }] })).toEqual([`status.podIPs[0]: Invalid value: "not-an-ip": ${INVALID_IP}`]);
    expect(await refused(pod, { qosClass: 'BestEffort', podIPs: [{}] })).toEqual([`status.podIPs[0]: Invalid value: "": ${INVALID_IP}`]);
    expect(await refused(pod, { qosClass: 'BestEffort', podIP: '10.0.0.1', podIPs: [{ ip: '10.0.0.1' }, { ip: '10.0.0.2' }] })).toEqual([
      'status.podIPs: Invalid value: []core.PodIP{core.PodIP{IP:"10.0.0.1"}, core.PodIP{IP:"10.0.0.2"}}: may specify no more than one IP for each IP family',
    ]);
    expect(await refused(pod, { qosClass: 'BestEffort', podIPs: [{ ip: 'fd00::1' }, { ip: 'fd00::1' }] })).toEqual([
      'status.podIPs: Invalid value: []core.PodIP{core.PodIP{IP:"fd00::1"}, core.PodIP{IP:"fd00::1"}}: may specify no more than one IP for each IP family',
      'status.podIPs[1]: Duplicate value: core.PodIP{IP:"fd00::1"}',
    ]);
    // podIP alone is podIPs[0] as kube decodes it.
    expect(await refused(pod, { qosClass: 'BestEffort', podIP: '300.1.1.1' })).toEqual([`status.podIPs[0]: Invalid value: "300.1.1.1": ${INVALID_IP}`]);
  });

  it('checks hostIPs: the first is hostIP, valid IPs, none twice, one per family', async () => {
    const pod = await createPod();
    expect(await refused(pod, { qosClass: 'BestEffort', hostIP: '10.0.0.1', hostIPs: [{ ip: '10.0.0.2' }] })).toEqual([
      'status.hostIPs[0].ip: Invalid value: "10.0.0.2": must be equal to `hostIP`',
    ]);
    expect(await refused(pod, { qosClass: 'BestEffort', hostIP: '10.0.0.1', hostIPs: [{ ip: '10.0.0.1' }, { ip: '10.0.0.1' }] })).toEqual([
      'status.hostIPs[1]: Duplicate value: core.HostIP{IP:"10.0.0.1"}',
      'status.hostIPs: Invalid value: []core.HostIP{core.HostIP{IP:"10.0.0.1"}, core.HostIP{IP:"10.0.0.1"}}: may specify no more than one IP for each IP family',
    ]);
    expect(await refused(pod, { qosClass: 'BestEffort', hostIPs: [{}] })).toEqual([`status.hostIPs[0]: Invalid value: "": ${INVALID_IP}`]);
  });

  it("checks containers' users: valid ids on Linux (at kube's path, without `user`), none for Linux on Windows", async () => {
    const pod = await createPod();
    expect(await refused(pod, { qosClass: 'BestEffort', containerStatuses: [{ name: 'app', user: { linux: { uid: -1, gid: 0, supplementalGroups: [1, 2147483648] } } }] })).toEqual([
      'status.containerStatuses[0].linux.uid: Invalid value: -1: must be between 0 and 2147483647, inclusive',
      'status.containerStatuses[0].linux.supplementalGroups[1]: Invalid value: 2147483648: must be between 0 and 2147483647, inclusive',
    ]);
    // A user without uid and gid is root's, as kube decodes it.
    await accepted(pod, { qosClass: 'BestEffort', containerStatuses: [{ name: 'app', user: { linux: {} } }] });
    const windows = await createPod({ os: { name: 'windows' } });
    expect(await refused(windows, { qosClass: 'BestEffort', initContainerStatuses: [{ name: 'init', user: { linux: { uid: 0, gid: 0 } } }] })).toEqual([
      'status.initContainerStatuses[0].linux: Forbidden: cannot be set for a windows pod',
    ]);
  });

  it("checks resource claims' statuses of a pod that uses claims; drops them otherwise (DynamicResourceAllocation is off by default)", async () => {
    const plain = await createPod();
    const stored = await accepted(plain, { qosClass: 'BestEffort', resourceClaimStatuses: [{ name: 'none' }] });
    expect(stored.status.resourceClaimStatuses).toBeUndefined();

    const pod = await createPod({ resourceClaims: [{ name: 'gpu', resourceClaimTemplateName: 'gpu-template' }] });
    const claimed = await accepted(pod, { qosClass: 'BestEffort', resourceClaimStatuses: [{ name: 'gpu', resourceClaimName: 'pod-gpu-abc' }] });
    expect(claimed.status.resourceClaimStatuses).toEqual([{ name: 'gpu', resourceClaimName: 'pod-gpu-abc' }]);
    expect(
      await refused(claimed, { qosClass: 'BestEffort', resourceClaimStatuses: [{ name: 'gpu', resourceClaimName: 'Bad_Name' }, { name: 'gpu' }, {}] }),
    ).toEqual([
      `status.resourceClaimStatuses[0].name: Invalid value: "Bad_Name": ${DNS_SUBDOMAIN}`,
      'status.resourceClaimStatuses[1].name: Duplicate value: "gpu"',
      'status.resourceClaimStatuses[2].name: Invalid value: "": must match the name of an entry in `spec.resourceClaims`',
    ]);
  });

  it('drops allocatedResourcesStatus (ResourceHealthStatus is off by default)', async () => {
    const pod = await createPod();
    const stored = await accepted(pod, { qosClass: 'BestEffort', containerStatuses: [{ name: 'app', allocatedResourcesStatus: [{ name: 'example.com/gpu', resources: [{ resourceID: 'x', health: 'Bad' }] }] }] });
    expect(stored.status.containerStatuses).toEqual([{ name: 'app', image: '', imageID: '', ready: false, restartCount: 0 }]);
  });
});
