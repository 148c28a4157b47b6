import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveCore, type TestServer } from './serve-for-tests.js';

const PODS = '/api/v1/namespaces/ns/pods';
const pod = (name: string, volumes: unknown[]) => ({ metadata: { name }, spec: { containers: [{ name: 'c', image: 'busybox' }], volumes } });
const DNS_LABEL =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const ISCSI_NAME_LENGTH = 'Total length of <volume name>:<iscsi.targetPortal> must be under 64 characters if iscsi.initiatorName is specified.';
const QUOBYTE_REGISTRY = 'must be a host:port pair or multiple pairs separated by commas';
const LUN_RANGE = 'must be between 0 and 255, inclusive';

describe("the older in-tree volume sources of a pod (kube 1.33's validateVolumeSource validators)", () => {
  let t: TestServer;
  let n = 0;
  /** The pod's `field: message` causes, in order, after kube's 422. */
  const refused = async (volumes: unknown[]) => {
    const res = await t.req('POST', PODS, pod(`refused-${n++}`, volumes));
    expect(res.status).toBe(422);
    return res.body.details.causes.map((c: { field: string; message: string }) => `${c.field}: ${c.message}`);
  };
  const accepted = async (volumes: unknown[]) => {
    const res = await t.req('POST', PODS, pod(`accepted-${n++}`, volumes));
    expect(res.body.details?.causes ?? []).toEqual([]);
    expect(res.status).toBe(201);
  };

  beforeAll(async () => {
    t = await serveCore();
  });
  afterAll(async () => {
    await t.server.stop?.();
  });

  it('gcePersistentDisk (errors under `persistentDisk`, as kube reports them) and awsElasticBlockStore: a disk and a partition', async () => {
    expect(await refused([{ name: 'gce', gcePersistentDisk: { pdName: '', partition: 256 } }, { name: 'aws', awsElasticBlockStore: { volumeID: '', partition: -1 } }])).toEqual([
      'spec.volumes[0].persistentDisk.pdName: Required value',
      'spec.volumes[0].persistentDisk.partition: Invalid value: 256: must be between 1 and 255, inclusive',
      'spec.volumes[1].awsElasticBlockStore.volumeID: Required value',
      'spec.volumes[1].awsElasticBlockStore.partition: Invalid value: -1: must be between 1 and 255, inclusive',
    ]);
    await accepted([
      { name: 'gce', gcePersistentDisk: { pdName: 'disk', partition: 255 } },
      { name: 'aws', awsElasticBlockStore: { volumeID: 'vol-0123', partition: 0 } },
    ]);
  });

  it('iscsi: portal, IQN formats, lun, CHAP secret, initiator name', async () => {
    expect(
      await refused([
        { name: 'empty', iscsi: { lun: 0 } },
        { name: 'bad', iscsi: { targetPortal: '10.0.0.1:3260', iqn: 'target', lun: 256, chapAuthSession: true, initiatorName: 'host' } },
        { name: 'formats', iscsi: { targetPortal: '10.0.0.1:3260', iqn: 'iqn.2015-02.example.com', lun: 0, chapAuthDiscovery: true, initiatorName: 'eui.0123' } },
        { name: 'naa', iscsi: { targetPortal: '10.0.0.1:3260', iqn: 'naa.0123', lun: -1, initiatorName: 'naa.0123456789abcdef0123456789abcdefff' } },
      ]),
    ).toEqual([
      'spec.volumes[0].iscsi.targetPortal: Required value',
      'spec.volumes[0].iscsi.iqn: Required value',
      'spec.volumes[1].iscsi.iqn: Invalid value: "target": must be valid format starting with iqn, eui, or naa',
      `spec.volumes[1].iscsi.lun: Invalid value: 256: ${LUN_RANGE}`,
      'spec.volumes[1].iscsi.secretRef: Required value',
      'spec.volumes[1].iscsi.initiatorname: Invalid value: "host": must be valid format starting with iqn, eui, or naa',
      'spec.volumes[2].iscsi.iqn: Invalid value: "iqn.2015-02.example.com": must be valid format',
      'spec.volumes[2].iscsi.secretRef: Required value',
      'spec.volumes[2].iscsi.initiatorname: Invalid value: "eui.0123": must be valid format',
      'spec.volumes[3].iscsi.iqn: Invalid value: "naa.0123": must be valid format',
      `spec.volumes[3].iscsi.lun: Invalid value: -1: ${LUN_RANGE}`,
      'spec.volumes[3].iscsi.initiatorname: Invalid value: "naa.0123456789abcdef0123456789abcdefff": must be valid format',
    ]);
    await accepted([
      { name: 'iqn', iscsi: { targetPortal: '10.0.0.1:3260', iqn: 'iqn.2015-02.example.com:test', lun: 255 } },
      {
        name: 'chap',
        iscsi: { targetPortal: '10.0.0.1', iqn: 'eui.02004567A425678D', lun: 1, chapAuthDiscovery: true, chapAuthSession: true, secretRef: { name: 'chap' }, initiatorName: 'iqn.1996-04.de.suse:01:6d4ca37ed1ca' },
      },
      { name: 'naa', iscsi: { targetPortal: '10.0.0.1', iqn: 'naa.60014055f57ad3d9d1f4bc2b3a6d7a4e', lun: 2, initiatorName: 'eui.02004567A425678D' } },
    ]);
  });

  it('iscsi with an initiator name: <volume name>:<targetPortal> fits 64 bytes, checked on the volume name even when iscsi is a second source', async () => {
    const long = 'v'.repeat(51);
    const iscsi = { targetPortal: '10.0.0.1:3260', iqn: 'iqn.2015-02.example.com:test', lun: 0, initiatorName: 'iqn.1996-04.de.suse:01:6d4ca37ed1ca' };
    expect(await refused([{ name: long, iscsi }, { name: 'second', emptyDir: {}, iscsi: { ...iscsi, targetPortal: `${'10.0.0.1,'.repeat(6)}:3260` } }])).toEqual([
      `spec.volumes[0].name: Invalid value: "${long}": ${ISCSI_NAME_LENGTH}`,
      'spec.volumes[1].iscsi: Forbidden: may not specify more than 1 volume type',
      `spec.volumes[1].name: Invalid value: "second": ${ISCSI_NAME_LENGTH}`,
    ]);
    // 50 + ':' + 13 bytes is 64: allowed; without an initiator name any length is.
    await accepted([{ name: 'v'.repeat(50), iscsi }, { name: 'v'.repeat(63), iscsi: { ...iscsi, initiatorName: undefined } }]);
  });

  it('flocker: a dataset name (without /) or UUID, not both', async () => {
    expect(await refused([{ name: 'none', flocker: {} }, { name: 'both', flocker: { datasetName: 'a/b', datasetUUID: 'uuid' } }])).toEqual([
      'spec.volumes[0].flocker: Required value: one of datasetName and datasetUUID is required',
      'spec.volumes[1].flocker: Invalid value: "resource": datasetName and datasetUUID can not be specified simultaneously',
      "spec.volumes[1].flocker.datasetName: Invalid value: \"a/b\": must not contain '/'",
    ]);
    await accepted([{ name: 'named', flocker: { datasetName: 'data' } }, { name: 'uuid', flocker: { datasetUUID: '0a1b2c3d' } }]);
  });

  it('cinder: a volume ID, and a named secret when one is given', async () => {
    expect(await refused([{ name: 'cinder', cinder: { volumeID: 'v', secretRef: {} } }])).toEqual(['spec.volumes[0].cinder.secretRef.name: Required value']);
    await accepted([{ name: 'cinder', cinder: { volumeID: 'v', secretRef: { name: 'openstack' } } }]);
  });

  it('quobyte: a registry of host:port pairs, a tenant of at most 64 bytes, a volume', async () => {
    expect(
      await refused([
        { name: 'empty', quobyte: {} },
        { name: 'pairs', quobyte: { registry: 'reg:7861,bad,[::1]7861', volume: 'v' } },
        { name: 'tenant', quobyte: { registry: 'bad', tenant: 't'.repeat(65), volume: 'v' } },
      ]),
    ).toEqual([
      `spec.volumes[0].quobyte.registry: Required value: ${QUOBYTE_REGISTRY}`,
      'spec.volumes[0].quobyte.volume: Required value',
      // One error for each bad pair, each with the whole registry.
      `spec.volumes[1].quobyte.registry: Invalid value: "reg:7861,bad,[::1]7861": ${QUOBYTE_REGISTRY}`,
      `spec.volumes[1].quobyte.registry: Invalid value: "reg:7861,bad,[::1]7861": ${QUOBYTE_REGISTRY}`,
      // A too long tenant stops the registry's check.
      'spec.volumes[2].quobyte.tenant: Required value: must be a UUID and may not exceed a length of 64 characters',
    ]);
    await accepted([{ name: 'quobyte', quobyte: { registry: 'reg:7861,[::1]:7861,:80', tenant: 't'.repeat(64), volume: 'v' } }]);
  });

  it('fc: target WWNs with a lun, or WWIDs', async () => {
    expect(
      await refused([
        { name: 'none', fc: {} },
        { name: 'both', fc: { targetWWNs: ['500a0981891b8dc5', '500a0981991b8dc5'], wwids: ['3600508b400105e210000900000490000'] } },
        { name: 'lun', fc: { targetWWNs: ['500a0981891b8dc5'], lun: 256 } },
      ]),
    ).toEqual([
      'spec.volumes[0].fc.targetWWNs: Required value: must specify either targetWWNs or wwids, but not both',
      'spec.volumes[1].fc.targetWWNs: Invalid value: []string{"500a0981891b8dc5", "500a0981991b8dc5"}: targetWWNs and wwids can not be specified simultaneously',
      'spec.volumes[1].fc.lun: Required value: lun is required if targetWWNs is specified',
      `spec.volumes[2].fc.lun: Invalid value: 256: ${LUN_RANGE}`,
    ]);
    await accepted([{ name: 'wwns', fc: { targetWWNs: ['500a0981891b8dc5'], lun: 0 } }, { name: 'wwids', fc: { wwids: ['3600508b400105e210000900000490000'] } }]);
  });

  it('flexVolume: no option in the kubernetes.io or k8s.io namespaces', async () => {
    const options = { 'kubernetes.io/foo': 'a', 'Example.K8S.io/bar': 'b', 'k8s.io': 'c', 'mykubernetes.io/ok': 'd', volumeID: 'e' };
    expect(await refused([{ name: 'flex', flexVolume: { driver: 'example/lvm', options } }])).toEqual([
      'spec.volumes[0].flexVolume.options[kubernetes.io/foo]: Invalid value: "kubernetes.io/foo": kubernetes.io and k8s.io namespaces are reserved',
      'spec.volumes[0].flexVolume.options[Example.K8S.io/bar]: Invalid value: "Example.K8S.io/bar": kubernetes.io and k8s.io namespaces are reserved',
      'spec.volumes[0].flexVolume.options[k8s.io]: Invalid value: "k8s.io": kubernetes.io and k8s.io namespaces are reserved',
    ]);
    await accepted([{ name: 'flex', flexVolume: { driver: 'example/lvm', options: { 'mykubernetes.io/ok': 'd', volumeID: 'e' } } }]);
  });

  it('azureDisk: a name and URI, a known caching mode and kind, a URI of the kind (a Shared disk by default)', async () => {
    const blob = 'https://account.blob.core.windows.net/vhds/disk.vhd';
    const managed = '/subscriptions/sub/resourcegroups/group/providers/microsoft.compute/disks/disk';
    expect(
      await refused([
        { name: 'empty', azureDisk: {} },
        { name: 'unknown', azureDisk: { diskName: 'd', diskURI: blob, cachingMode: 'Write', kind: 'Local' } },
        { name: 'managed', azureDisk: { diskName: 'd', diskURI: blob, kind: 'Managed' } },
        { name: 'dedicated', azureDisk: { diskName: 'd', diskURI: managed, kind: 'Dedicated' } },
      ]),
    ).toEqual([
      'spec.volumes[0].azureDisk.diskName: Required value',
      'spec.volumes[0].azureDisk.diskURI: Required value',
      'spec.volumes[0].azureDisk.diskURI: Unsupported value: "": supported values: "https://{account-name}.blob.core.windows.net/{container-name}/{disk-name}.vhd"',
      'spec.volumes[1].azureDisk.cachingMode: Unsupported value: "Write": supported values: "None", "ReadOnly", "ReadWrite"',
      'spec.volumes[1].azureDisk.kind: Unsupported value: "Local": supported values: "Dedicated", "Managed", "Shared"',
      `spec.volumes[2].azureDisk.diskURI: Unsupported value: "${blob}": supported values: "/subscriptions/{sub-id}/resourcegroups/{group-name}/providers/microsoft.compute/disks/{disk-id}"`,
      `spec.volumes[3].azureDisk.diskURI: Unsupported value: "${managed}": supported values: "https://{account-name}.blob.core.windows.net/{container-name}/{disk-name}.vhd"`,
    ]);
    await accepted([
      { name: 'shared', azureDisk: { diskName: 'd', diskURI: blob } },
      { name: 'managed', azureDisk: { diskName: 'd', diskURI: managed, kind: 'Managed', cachingMode: 'None' } },
    ]);
  });

  it('storageos: DNS-label volume name and namespace, a named secret when one is given', async () => {
    expect(
      await refused([
        { name: 'empty', storageos: {} },
        { name: 'bad', storageos: { volumeName: 'Bad_Name', volumeNamespace: 'also.bad', secretRef: {} } },
      ]),
    ).toEqual([
      'spec.volumes[0].storageos.volumeName: Required value',
      `spec.volumes[1].storageos.volumeName: Invalid value: "Bad_Name": ${DNS_LABEL}`,
      `spec.volumes[1].storageos.volumeNamespace: Invalid value: "also.bad": ${DNS_LABEL}`,
      'spec.volumes[1].storageos.secretRef.name: Required value',
    ]);
    await accepted([{ name: 'storageos', storageos: { volumeName: 'data', volumeNamespace: 'team-a', secretRef: { name: 'storageos' } } }]);
  });
});
