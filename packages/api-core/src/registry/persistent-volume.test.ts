import { createApiServer, type ApiServer } from '@kapi/apiserver';
import { createMemoryBackend } from '@kapi/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCorePlugin } from './plugin.js';

const PVS = '/api/v1/persistentvolumes';
const DNS_SUBDOMAIN =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const DNS_LABEL =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const LABEL_VALUE =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const ACCESS_MODES = 'supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"';
const ISCSI_NAME_LENGTH = 'Total length of <volume name>:<iscsi.targetPortal> must be under 64 characters if iscsi.initiatorName is specified.';
const QUANTITY_1 = 'resource.Quantity{i:resource.int64Amount{value:1, scale:0}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"1", Format:"DecimalSI"}';
const QUANTITY_MINUS_1GI = 'resource.Quantity{i:resource.int64Amount{value:-1073741824, scale:0}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"-1Gi", Format:"BinarySI"}';
const IMMUTABLE_SOURCE = 'spec.persistentvolumesource: Forbidden: spec.persistentvolumesource is immutable after creation';
const NODE_AFFINITY_IMMUTABLE = 'field is immutable, except for updating from beta label to GA';

const base = { accessModes: ['ReadWriteOnce'], capacity: { storage: '1Gi' } };
const pv = (name: string, spec: Record<string, unknown>, metadata: Record<string, unknown> = {}) => ({ metadata: { name, ...metadata }, spec: { ...base, ...spec } });
const zone = (key: string, values = ['zone-a']) => ({ required: { nodeSelectorTerms: [{ matchExpressions: [{ key, operator: 'In', values }] }] } });

describe("PersistentVolumes (kube 1.33's ValidatePersistentVolume and its strategy)", () => {
  let server: ApiServer;
  let n = 0;
  const req = async (method: string, path: string, body?: unknown) => {
    const headers = { 'content-type': method === 'PATCH' ? 'application/merge-patch+json' : 'application/json', accept: 'application/json' };
    const res = await server.fetch(new Request(`http://kapi.test${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) }));
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined, warning: res.headers.get('warning') };
  };
  /** The `field: message` causes of kube's 422. */
  const causes = (res: { status: number; body: any }) => {
    expect(res.status).toBe(422);
    return res.body.details.causes.map((c: { field: string; message: string }) => `${c.field}: ${c.message}`);
  };
  const refused = async (spec: Record<string, unknown>, metadata: Record<string, unknown> = {}) => causes(await req('POST', PVS, pv(`refused-${n++}`, spec, metadata)));
  const created = async (name: string, spec: Record<string, unknown>, metadata: Record<string, unknown> = {}) => {
    const res = await req('POST', PVS, pv(name, spec, metadata));
    expect(res.body.details?.causes ?? []).toEqual([]);
    expect(res.status).toBe(201);
    return res.body;
  };
  const accepted = (spec: Record<string, unknown>, metadata: Record<string, unknown> = {}) => created(`accepted-${n++}`, spec, metadata);
  const patch = (name: string, body: unknown) => req('PATCH', `${PVS}/${name}`, body);

  beforeAll(async () => {
    server = createApiServer({ storage: createMemoryBackend(), plugins: [createCorePlugin()] });
    await server.start();
  });
  afterAll(async () => {
    await server.stop?.();
  });

  describe('create', () => {
    it('a new volume is Pending since now, whatever status it was sent with', async () => {
      const before = Date.now() - 1000;
      const res = await req('POST', PVS, { ...pv('fresh', { hostPath: { path: '/data' } }), status: { phase: 'Bound', message: 'sent' } });
      expect(res.status).toBe(201);
      expect(Object.keys(res.body.status)).toEqual(['phase', 'lastPhaseTransitionTime']);
      expect(res.body.status.phase).toBe('Pending');
      expect(Date.parse(res.body.status.lastPhaseTransitionTime)).toBeGreaterThanOrEqual(before);
    });

    it("the iscsi, rbd and scaleIO sources get kube's defaults (SetDefaults_*PersistentVolumeSource), as the pod volume sources do", async () => {
      const iscsi = await accepted({ iscsi: { targetPortal: '10.0.0.1:3260', iqn: 'iqn.2015-02.example.com:test', lun: 1 } });
      expect(iscsi.spec.iscsi.iscsiInterface).toBe('default');
      const rbd = await accepted({ rbd: { monitors: ['10.0.0.1:6789'], image: 'img', secretRef: { name: 's', namespace: 'default' } } });
      expect(rbd.spec.rbd).toMatchObject({ pool: 'rbd', user: 'admin', keyring: '/etc/ceph/keyring' });
      const scaleIO = await accepted({ scaleIO: { gateway: 'https://gw', system: 'sys', volumeName: 'vol', secretRef: { name: 's' } } });
      expect(scaleIO.spec.scaleIO).toMatchObject({ storageMode: 'ThinProvisioned', fsType: 'xfs' });
      // Given values, and empty ones (kube defaults "" too), are kept and replaced as kube does.
      const given = await accepted({ rbd: { monitors: ['10.0.0.1:6789'], image: 'img', pool: 'p', user: '', keyring: '/k' } });
      expect(given.spec.rbd).toMatchObject({ pool: 'p', user: 'admin', keyring: '/k' });
    });

    it('valid volumes of several sources; a missing iscsi lun is lun 0 and a scaleIO secretRef is not required, as kube decodes them', async () => {
      await accepted({ iscsi: { targetPortal: '10.0.0.1:3260', iqn: 'iqn.2015-02.example.com:test' } });
      await accepted({ scaleIO: { gateway: 'https://gw', system: 'sys', volumeName: 'vol' } });
      await accepted({ nfs: { server: 'nfs.example.com', path: '/exports' }, mountOptions: ['hard'] }, { annotations: { [`volume.beta.kubernetes.io/mount-options`]: 'hard' } });
      await accepted({
        csi: {
          driver: 'ebs.csi.aws.com',
          volumeHandle: 'vol-1',
          nodePublishSecretRef: { name: 'creds', namespace: 'kube-system' },
          // kube does not check nodeStageSecretRef.
          nodeStageSecretRef: {},
        },
        storageClassName: 'fast',
        volumeMode: 'Block',
        persistentVolumeReclaimPolicy: 'Delete',
      });
      await accepted({ local: { path: '/mnt/disks/ssd1' }, nodeAffinity: zone('topology.kubernetes.io/zone'), accessModes: ['ReadWriteOncePod'] });
      await accepted({ glusterfs: { endpoints: 'glusterfs-cluster', path: 'vol', endpointsNamespace: 'storage' } });
      await accepted({ cinder: { volumeID: 'v', secretRef: { name: 's', namespace: 'openstack' } } });
      // A flexVolume is validated and counted without the "more than 1" check, as in kube.
      await accepted({ hostPath: { path: '/data' }, flexVolume: { driver: 'example/lvm' } });
      // Recycle is only refused for a hostPath of '/'.
      await accepted({ hostPath: { path: '/data' }, persistentVolumeReclaimPolicy: 'Recycle' });
      // Gt takes one value; a field selector one node name.
      await accepted({ hostPath: { path: '/data' }, nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'rack', operator: 'Gt', values: ['3'] }], matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node-1'] }] }] } } });
    });

    it('access modes (at least one, supported, ReadWriteOncePod alone), capacity, a source: an empty spec', async () => {
      expect(await refused({ accessModes: undefined, capacity: undefined })).toEqual([
        'spec.accessModes: Required value',
        'spec.capacity: Required value',
        'spec.capacity: Unsupported value: core.ResourceList(nil): supported values: "storage"',
        'spec: Required value: must specify a volume type',
      ]);
      expect(await refused({ accessModes: ['ReadWriteOncePod', 'ReadWriteOnce', 'Sometimes'], hostPath: { path: '/data' } })).toEqual([
        `spec.accessModes: Unsupported value: "Sometimes": ${ACCESS_MODES}`,
        'spec.accessModes: Forbidden: may not use ReadWriteOncePod with other access modes',
      ]);
    });

    it('capacity: storage and nothing else (the list printed as Go does), each quantity positive', async () => {
      expect(await refused({ capacity: { storage: '-1Gi', cpu: '1' }, hostPath: { path: '/data' } })).toEqual([
        `spec.capacity: Unsupported value: core.ResourceList{"cpu":${QUANTITY_1}, "storage":${QUANTITY_MINUS_1GI}}: supported values: "storage"`,
        'spec.capacity[storage]: Invalid value: -1073741824: must be a valid resource quantity',
        'spec.capacity[storage]: Invalid value: "-1Gi": must be greater than zero',
      ]);
      expect(await refused({ capacity: { storage: '0' }, hostPath: { path: '/data' } })).toEqual(['spec.capacity[storage]: Invalid value: "0": must be greater than zero']);
      // Quantity.Value() rounds away from zero.
      expect(await refused({ capacity: { storage: '-500m' }, hostPath: { path: '/data' } })).toEqual([
        'spec.capacity[storage]: Invalid value: -1: must be a valid resource quantity',
        'spec.capacity[storage]: Invalid value: "-500m": must be greater than zero',
      ]);
    });

    it('reclaim policy, Recycle of a hostPath of /, storage class, volume mode', async () => {
      expect(
        await refused({ hostPath: { path: '//' }, persistentVolumeReclaimPolicy: 'Recycle', storageClassName: 'Fast_Class', volumeMode: 'Raw' }),
      ).toEqual([
        "spec.persistentVolumeReclaimPolicy: Forbidden: may not be 'recycle' for a hostPath mount of '/'",
        `spec.storageClassName: Invalid value: "Fast_Class": ${DNS_SUBDOMAIN}`,
        'spec.volumeMode: Unsupported value: "Raw": supported values: "Block", "Filesystem"',
      ]);
      expect(await refused({ accessModes: [], hostPath: { path: '/data' }, persistentVolumeReclaimPolicy: 'Sometimes' })).toEqual([
        'spec.accessModes: Required value',
        'spec.persistentVolumeReclaimPolicy: Unsupported value: "Sometimes": supported values: "Delete", "Recycle", "Retain"',
      ]);
    });

    it('one source, in kube order (a flexVolume is validated even when it is a second one), with its own errors', async () => {
      expect(await refused({ hostPath: { path: '/a/../b' }, nfs: { server: 's', path: '/p' }, flexVolume: {}, cephfs: {}, local: { path: '/l' } })).toEqual([
        `spec.hostPath.path: Invalid value: "/a/../b": must not contain '..'`,
        'spec.nfs: Forbidden: may not specify more than 1 volume type',
        'spec.cephFS: Forbidden: may not specify more than 1 volume type',
        'spec.flexVolume.driver: Required value',
        'spec.local: Forbidden: may not specify more than 1 volume type',
      ]);
    });

    it('iscsi: the PV validator (portal length with the PV name, "must be valid format", a named secretRef)', async () => {
      const name = `long-${'x'.repeat(48)}`;
      const res = await req('POST', PVS, pv(name, { iscsi: { targetPortal: '10.0.0.1:3260', iqn: 'target', lun: 256, chapAuthSession: true, initiatorName: 'host' } }));
      expect(causes(res)).toEqual([
        `spec.iscsi.targetportal: Invalid value: "10.0.0.1:3260": ${ISCSI_NAME_LENGTH}`,
        'spec.iscsi.iqn: Invalid value: "target": must be valid format',
        'spec.iscsi.lun: Invalid value: 256: must be between 0 and 255, inclusive',
        'spec.iscsi.secretRef: Required value',
        'spec.iscsi.initiatorname: Invalid value: "host": must be valid format',
      ]);
      expect(await refused({ iscsi: { iqn: 'eui.0123', secretRef: {} } })).toEqual([
        'spec.iscsi.targetPortal: Required value',
        'spec.iscsi.iqn: Invalid value: "eui.0123": must be valid format',
        'spec.iscsi.secretRef.name: Required value',
      ]);
    });

    it('csi: a driver, a volume handle, secret references with a name and a namespace', async () => {
      expect(
        await refused({
          csi: {
            controllerPublishSecretRef: {},
            nodePublishSecretRef: { name: 'Bad_Name', namespace: 'Bad.NS' },
            controllerExpandSecretRef: { name: 'ok', namespace: 'ok' },
            nodeExpandSecretRef: { namespace: 'ns' },
          },
        }),
      ).toEqual([
        'spec.csi.driver: Required value',
        `spec.csi.driver: Invalid value: "": ${DNS_SUBDOMAIN}`,
        'spec.csi.volumeHandle: Required value',
        'spec.csi.controllerPublishSecretRef.name: Required value',
        'spec.csi.controllerPublishSecretRef.namespace: Required value',
        `spec.csi.nodePublishSecretRef.name: Invalid value: "Bad_Name": ${DNS_SUBDOMAIN}`,
        `spec.csi.nodePublishSecretRef.namespace: Invalid value: "Bad.NS": ${DNS_LABEL}`,
        'spec.csi.nodeExpandSecretRef.name: Required value',
      ]);
    });

    it('local: a path without backsteps, and a node affinity with required terms', async () => {
      expect(await refused({ local: {} })).toEqual(['spec.local.path: Required value', 'spec.nodeAffinity: Required value: Local volume requires node affinity']);
      expect(await refused({ local: { path: '/mnt/../etc' }, nodeAffinity: {} })).toEqual([
        'spec.nodeAffinity.required: Required value: must specify required node constraints',
        `spec.local.path: Invalid value: "/mnt/../etc": must not contain '..'`,
      ]);
      expect(await refused({ local: { path: '/mnt' }, nodeAffinity: { required: { nodeSelectorTerms: [] } } })).toEqual([
        'spec.nodeAffinity.required.nodeSelectorTerms: Required value: must have at least one node selector term',
      ]);
    });

    it('node affinity: operators, keys, label values of required terms, field selectors', async () => {
      const terms = [
        { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a b'] }, {}, { key: 'rack', operator: 'Exists', values: ['1'] }] },
        { matchFields: [{ key: 'metadata.uid', operator: 'In', values: ['x', 'y'] }, { key: 'metadata.name', operator: 'NotIn', values: ['Node_1'] }] },
      ];
      expect(await refused({ hostPath: { path: '/data' }, nodeAffinity: { required: { nodeSelectorTerms: terms } } })).toEqual([
        `spec.nodeAffinity.required.nodeSelectorTerms[0].matchExpressions[0].values[0]: Invalid value: "a b": ${LABEL_VALUE}`,
        'spec.nodeAffinity.required.nodeSelectorTerms[0].matchExpressions[1].operator: Invalid value: "": not a valid selector operator',
        'spec.nodeAffinity.required.nodeSelectorTerms[0].matchExpressions[1].key: Invalid value: "": name part must be non-empty',
        "spec.nodeAffinity.required.nodeSelectorTerms[0].matchExpressions[1].key: Invalid value: \"\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
        "spec.nodeAffinity.required.nodeSelectorTerms[0].matchExpressions[2].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
        "spec.nodeAffinity.required.nodeSelectorTerms[1].matchFields[0].values: Required value: must be only one value when `operator` is 'In' or 'NotIn' for node field selector",
        'spec.nodeAffinity.required.nodeSelectorTerms[1].matchFields[0].key: Invalid value: "metadata.uid": not a valid field selector key',
        `spec.nodeAffinity.required.nodeSelectorTerms[1].matchFields[1].values[0]: Invalid value: "Node_1": ${DNS_SUBDOMAIN}`,
      ]);
    });

    it('the PV forms of the glusterfs, cinder, storageos and azureFile sources', async () => {
      expect(await refused({ glusterfs: { endpoints: 'e', path: 'p', endpointsNamespace: '' } })).toEqual([
        'spec.glusterfs.endpointsNamespace: Invalid value: "": if the endpointnamespace is set, it must be a valid namespace name',
      ]);
      expect(await refused({ glusterfs: { endpointsNamespace: 'Bad' } })).toEqual([
        'spec.glusterfs.endpoints: Required value',
        'spec.glusterfs.path: Required value',
        `spec.glusterfs.endpointsNamespace: Invalid value: "Bad": ${DNS_LABEL}`,
      ]);
      expect(await refused({ cinder: { volumeID: 'v', secretRef: {} } })).toEqual(['spec.cinder.secretRef.name: Required value', 'spec.cinder.secretRef.namespace: Required value']);
      expect(await refused({ storageos: { secretRef: { name: 's' } } })).toEqual(['spec.storageos.volumeName: Required value', 'spec.storageos.secretRef.namespace: Required value']);
      expect(await refused({ azureFile: { secretName: 's', shareName: 'share', secretNamespace: '' } })).toEqual(['spec.azureFile.secretNamespace: Required value']);
      expect(await refused({ scaleIO: {} })).toEqual(['spec.scaleIO.gateway: Required value', 'spec.scaleIO.system: Required value', 'spec.scaleIO.volumeName: Required value']);
    });

    it('the mount options annotation only on sources that take mount options', async () => {
      const annotations = { 'volume.beta.kubernetes.io/mount-options': 'ro' };
      const forbidden = 'metadata.annotations.volume.beta.kubernetes.io/mount-options: Forbidden: may not specify mount options for this volume type';
      expect(await refused({ hostPath: { path: '/data' } }, { annotations })).toEqual([forbidden]);
      expect(await refused({ csi: { driver: 'd.example.com', volumeHandle: 'h' } }, { annotations })).toEqual([forbidden]);
      await accepted({ iscsi: { targetPortal: '10.0.0.1', iqn: 'iqn.2015-02.example.com:t' } }, { annotations });
    });
  });

  it("warns of deprecated sources, node labels, the Recycle policy and the beta storage class annotation (kube's GetWarningsForPersistentVolume)", async () => {
    const res = await req(
      'POST',
      PVS,
      pv('deprecated', { rbd: { monitors: ['10.0.0.1:6789'], image: 'img' }, persistentVolumeReclaimPolicy: 'Recycle', nodeAffinity: zone('beta.kubernetes.io/os', ['linux']) }, {
        annotations: { 'volume.beta.kubernetes.io/storage-class': 'fast' },
      }),
    );
    expect(res.status).toBe(201);
    expect(res.warning).toBe(
      [
        '299 - "metadata.annotations[volume.beta.kubernetes.io/storage-class]: deprecated since v1.8; use \\"storageClassName\\" attribute instead"',
        '299 - "spec.persistentVolumeReclaimPolicy: The Recycle reclaim policy is deprecated. Instead, the recommended approach is to use dynamic provisioning."',
        '299 - "spec.nodeAffinity.required.nodeSelectorTerms[0].matchExpressions[0].key: beta.kubernetes.io/os is deprecated since v1.14; use \\"kubernetes.io/os\\" instead"',
        '299 - "spec.rbd: deprecated in v1.28, non-functional in v1.31+"',
      ].join(', '),
    );
    // A status write warns of nothing.
    const status = await req('PUT', `${PVS}/deprecated/status`, { ...res.body, status: { phase: 'Available' } });
    expect(status.status).toBe(200);
    expect(status.warning).toBeNull();
    const storageos = await req('POST', PVS, pv('storageos', { storageos: { volumeName: 'vol' } }));
    expect(storageos.warning).toBe('299 - "spec.storageOS: deprecated in v1.22, non-functional in v1.25+"');
  });

  describe('update', () => {
    beforeAll(async () => {
      await created('nfs', { nfs: { server: 'nfs.example.com', path: '/exports' } });
      await created('csi', { csi: { driver: 'd.example.com', volumeHandle: 'h' } });
      await created('pinned', { local: { path: '/mnt' }, nodeAffinity: zone('failure-domain.beta.kubernetes.io/zone') });
      await created('phases', { hostPath: { path: '/data' } });
    });

    it('the source is immutable; everything else in the spec but the volume mode may change', async () => {
      expect(causes(await patch('nfs', { spec: { nfs: { path: '/other' } } }))).toEqual([IMMUTABLE_SOURCE]);
      expect(causes(await patch('nfs', { spec: { nfs: null, hostPath: { path: '/exports' } } }))).toEqual([IMMUTABLE_SOURCE]);
      expect(causes(await patch('nfs', { spec: { volumeMode: 'Block' } }))).toEqual(['volumeMode: Invalid value: "Block": field is immutable']);
      const res = await patch('nfs', { spec: { capacity: { storage: '2Gi' }, accessModes: ['ReadWriteMany'], persistentVolumeReclaimPolicy: 'Delete', storageClassName: 'slow', claimRef: { namespace: 'ns', name: 'claim' } } });
      expect(res.status).toBe(200);
      expect(res.body.spec.capacity).toEqual({ storage: '2Gi' });
    });

    it('a CSI volume may gain a controllerExpandSecretRef, not another change', async () => {
      const res = await patch('csi', { spec: { csi: { controllerExpandSecretRef: { name: 'expand', namespace: 'kube-system' } } } });
      expect(res.status).toBe(200);
      expect(causes(await patch('csi', { spec: { csi: { controllerExpandSecretRef: { name: 'other', namespace: 'kube-system' } } } }))).toEqual([IMMUTABLE_SOURCE]);
      expect(causes(await patch('csi', { spec: { csi: { nodePublishSecretRef: { name: 'n', namespace: 'kube-system' } } } }))).toEqual([IMMUTABLE_SOURCE]);
    });

    it('each spec error twice (kube runs ValidatePersistentVolume twice on update), then the update rules', async () => {
      expect(causes(await patch('nfs', { spec: { storageClassName: 'Bad_Class', nfs: { path: 'relative' } } }))).toEqual([
        `spec.nfs.path: Invalid value: "relative": must be an absolute path`,
        `spec.storageClassName: Invalid value: "Bad_Class": ${DNS_SUBDOMAIN}`,
        `spec.nfs.path: Invalid value: "relative": must be an absolute path`,
        `spec.storageClassName: Invalid value: "Bad_Class": ${DNS_SUBDOMAIN}`,
        IMMUTABLE_SOURCE,
      ]);
    });

    it('node affinity may be set once, then only move beta labels to GA ones', async () => {
      expect(causes(await patch('pinned', { spec: { nodeAffinity: zone('failure-domain.beta.kubernetes.io/zone', ['zone-b']) } }))).toEqual([
        `nodeAffinity: Invalid value: core.VolumeNodeAffinity{Required:(*core.NodeSelector)(…)}: ${NODE_AFFINITY_IMMUTABLE}`,
      ]);
      expect(causes(await patch('pinned', { spec: { nodeAffinity: zone('node.kubernetes.io/instance-type') } }))).toEqual([
        `nodeAffinity: Invalid value: core.VolumeNodeAffinity{Required:(*core.NodeSelector)(…)}: ${NODE_AFFINITY_IMMUTABLE}`,
      ]);
      const moved = await patch('pinned', { spec: { nodeAffinity: zone('topology.kubernetes.io/zone') } });
      expect(moved.status).toBe(200);
      // Back to the beta label is a change like any other.
      expect(causes(await patch('pinned', { spec: { nodeAffinity: zone('failure-domain.beta.kubernetes.io/zone') } }))).toEqual([
        `nodeAffinity: Invalid value: core.VolumeNodeAffinity{Required:(*core.NodeSelector)(…)}: ${NODE_AFFINITY_IMMUTABLE}`,
      ]);
      // The nfs volume had none: it may get one.
      expect((await patch('nfs', { spec: { nodeAffinity: zone('topology.kubernetes.io/zone') } })).status).toBe(200);
      const stored = (await req('GET', `${PVS}/nfs`)).body;
      expect(causes(await req('PUT', `${PVS}/nfs`, { ...stored, spec: { ...stored.spec, nodeAffinity: undefined } }))).toEqual([
        `nodeAffinity: Invalid value: "null": ${NODE_AFFINITY_IMMUTABLE}`,
      ]);
    });

    it('the status subresource: a phase change gets a new lastPhaseTransitionTime unless the client sets another', async () => {
      const status = async (body: Record<string, unknown>) => {
        const stored = (await req('GET', `${PVS}/phases`)).body;
        const res = await req('PUT', `${PVS}/phases/status`, { ...stored, status: body });
        expect(res.status).toBe(200);
        return res.body.status;
      };
      const past = '2020-01-01T00:00:00Z';
      expect(await status({ phase: 'Available', lastPhaseTransitionTime: past })).toEqual({ phase: 'Available', lastPhaseTransitionTime: past });
      // The same phase keeps the stored time.
      expect(await status({ phase: 'Available', message: 'still' })).toEqual({ phase: 'Available', message: 'still', lastPhaseTransitionTime: past });
      const bound = await status({ phase: 'Bound' });
      expect(bound.lastPhaseTransitionTime).not.toBe(past);
      expect(Date.parse(bound.lastPhaseTransitionTime)).toBeGreaterThan(Date.parse(past));
      // A client that sends the stored time with a new phase gets a new time too.
      const stamped = await status({ phase: 'Released', lastPhaseTransitionTime: bound.lastPhaseTransitionTime });
      expect(stamped.phase).toBe('Released');
      expect(Date.parse(stamped.lastPhaseTransitionTime)).toBeGreaterThanOrEqual(Date.parse(bound.lastPhaseTransitionTime));
      // The spec is not validated (nor changed) by a status write.
      const stored = (await req('GET', `${PVS}/phases`)).body;
      const res = await req('PUT', `${PVS}/phases/status`, { ...stored, spec: { ...stored.spec, volumeMode: 'Block' } });
      expect(res.status).toBe(200);
      expect(res.body.spec.volumeMode).toBe('Filesystem');
    });

    it('drops volumeAttributesClassName, as kube 1.33 does with its VolumeAttributesClass feature off', async () => {
      const res = await req('POST', PVS, pv('classed', { csi: { driver: 'd.example.com', volumeHandle: 'h' }, volumeAttributesClassName: 'gold' }));
      expect(res.status).toBe(201);
      expect(res.body.spec.volumeAttributesClassName).toBeUndefined();
      const patched = await patch('classed', { spec: { volumeAttributesClassName: 'silver' } });
      expect(patched.status).toBe(200);
      expect(patched.body.spec.volumeAttributesClassName).toBeUndefined();
    });
  });
});
