import { asObjects, isObj, str, type KubeObject, type Obj } from '@kapi/apimachinery';
import { admissionForbidden, generateName, type AdmissionAttributes, type AdmissionPlugin, type PluginHost } from '@kapi/apiserver';
import { MIRROR_POD_ANNOTATION } from '../pod-annotations.js';
import { findCachedOrLive } from './lookup.js';

// kube 1.33's ServiceAccount admission plugin (plugin/pkg/admission/serviceaccount), on by default: a new Pod runs as
// a ServiceAccount that exists (`default` unless it names one), and gets its API credentials mounted as a projected
// volume (kube-api-access-xxxxx: a bound token, the cluster CA and the namespace) in every container, unless the
// pod or its account opts out; a static (mirror) pod may reference no account and no secret.

const DEFAULT_ACCOUNT = 'default';
const VOLUME_PREFIX = 'kube-api-access-';
export const TOKEN_MOUNT_PATH = '/var/run/secrets/kubernetes.io/serviceaccount';
/** kube waits for the `default` account, which its controller creates with the namespace: 10 tries, 0.5 s apart. */
const DEFAULT_ACCOUNT_WAIT_MS = 5000;
const RETRY_MS = 50;

/** kube's TokenVolumeSource: a bound token (3607 s, kube's warn-only expiry), the cluster CA bundle and the namespace. */
const tokenVolumeSource = (): Obj => ({
  sources: [
    { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
    { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
    { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
  ],
  defaultMode: 420,
});

/** kube's VisitPodSecretNames: whether any volume, pull secret or container environment references a Secret. */
function referencesSecrets(spec: Obj): boolean {
  if (asObjects(spec.imagePullSecrets).length) return true;
  for (const v of asObjects(spec.volumes)) {
    if (isObj(v.secret) || asObjects(isObj(v.projected) ? v.projected.sources : undefined).some((s) => isObj(s.secret))) return true;
    if (['azureFile', 'cephfs', 'cinder', 'flexVolume', 'rbd', 'scaleIO', 'iscsi', 'storageos', 'csi'].some((k) => isObj(v[k]) && (isObj(v[k].secretRef) || isObj(v[k].nodePublishSecretRef) || str(v[k].secretName)))) return true;
  }
  const containers = [...asObjects(spec.containers), ...asObjects(spec.initContainers), ...asObjects(spec.ephemeralContainers)];
  return containers.some(
    (c) => asObjects(c.envFrom).some((e) => isObj(e.secretRef)) || asObjects(c.env).some((e) => isObj(e.valueFrom) && isObj(e.valueFrom.secretKeyRef)),
  );
}

/** What kube refuses of a static (mirror) pod: the kubelet mirrors it, so it may reference no account or secret. */
function mirrorPodRefusal(spec: Obj): string | undefined {
  if (str(spec.serviceAccountName)) return 'a mirror pod may not reference service accounts';
  if (referencesSecrets(spec)) return 'a mirror pod may not reference secrets';
  for (const v of asObjects(spec.volumes)) {
    for (const source of asObjects(isObj(v.projected) ? v.projected.sources : undefined)) {
      if (isObj(source.serviceAccountToken)) return 'a mirror pod may not use ServiceAccountToken volume projections';
      if (isObj(source.clusterTrustBundle)) return 'a mirror pod may not use ClusterTrustBundle volume projections';
    }
  }
  return undefined;
}

/** kube's mountServiceAccountToken: the projected volume, mounted read-only in each container that has nothing at its path. */
function mountToken(spec: Obj): void {
  const volumes = asObjects(spec.volumes);
  const existing = volumes.find((v) => str(v.name).startsWith(VOLUME_PREFIX));
  const name = existing ? str(existing.name) : generateName(VOLUME_PREFIX);
  let needed = false;
  for (const key of ['initContainers', 'containers']) {
    for (const c of asObjects(spec[key])) {
      const mounts = asObjects(c.volumeMounts);
      if (mounts.some((m) => m.mountPath === TOKEN_MOUNT_PATH)) continue;
      c.volumeMounts = [...mounts, { name, readOnly: true, mountPath: TOKEN_MOUNT_PATH }];
      needed = true;
    }
  }
  if (!existing && needed) spec.volumes = [...volumes, { name, projected: tokenVolumeSource() }];
}

/** kube's shouldAutomount: the pod's automountServiceAccountToken, else its account's, else true. */
function automounts(spec: Obj, account: KubeObject): boolean {
  if (typeof spec.automountServiceAccountToken === 'boolean') return spec.automountServiceAccountToken;
  if (typeof account.automountServiceAccountToken === 'boolean') return account.automountServiceAccountToken;
  return true;
}

const isNewPod = (attrs: AdmissionAttributes) =>
  attrs.operation === 'CREATE' && !attrs.subresource && attrs.resource.group === '' && attrs.resource.plural === 'pods' && !!attrs.object;

const isMirror = (pod: KubeObject) => isObj(pod.metadata?.annotations) && MIRROR_POD_ANNOTATION in pod.metadata.annotations;

/** The ServiceAccount admission plugin; `host` reads the accounts (from the watch cache, then storage). */
export function serviceAccountAdmission(host: PluginHost): AdmissionPlugin {
  /** kube's getServiceAccount: the `default` account is waited for a while, as its controller may not have made it yet. */
  const account = async (attrs: AdmissionAttributes, name: string): Promise<KubeObject> => {
    const entry = host.registry.byKind('', 'v1', 'ServiceAccount');
    if (entry) {
      const ctx = host.systemContext(entry, { namespace: attrs.namespace });
      const until = Date.now() + (name === DEFAULT_ACCOUNT ? DEFAULT_ACCOUNT_WAIT_MS : 0);
      for (;;) {
        const found = await findCachedOrLive(host, ctx, name);
        if (found) return found;
        if (Date.now() >= until || attrs.deadline?.signal.aborted) break;
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
      }
    }
    throw admissionForbidden(attrs, `error looking up service account ${attrs.namespace}/${name}: serviceaccount "${name}" not found`);
  };

  return {
    name: 'ServiceAccount',
    operations: ['CREATE'],
    async mutate(attrs) {
      if (!isNewPod(attrs)) return;
      const pod = attrs.object!;
      const spec = (pod.spec ??= {}) as Obj;
      // A mirror pod's spec is the kubelet's: not changed (validate refuses what it may not reference).
      if (isMirror(pod)) return;
      if (!str(spec.serviceAccountName)) spec.serviceAccountName = DEFAULT_ACCOUNT;
      const found = await account(attrs, str(spec.serviceAccountName));
      if (automounts(spec, found)) mountToken(spec);
      if (!asObjects(spec.imagePullSecrets).length && asObjects(found.imagePullSecrets).length) {
        spec.imagePullSecrets = asObjects(found.imagePullSecrets).map((s) => ({ name: str(s.name) }));
      }
    },
    async validate(attrs) {
      if (!isNewPod(attrs)) return;
      const pod = attrs.object!;
      const spec = isObj(pod.spec) ? pod.spec : {};
      if (isMirror(pod)) {
        const refusal = mirrorPodRefusal(spec);
        if (refusal) throw admissionForbidden(attrs, refusal);
        return;
      }
      const name = str(spec.serviceAccountName);
      if (!name) throw admissionForbidden(attrs, `no service account specified for pod ${attrs.namespace}/${str(pod.metadata?.name)}`);
      await account(attrs, name);
    },
  };
}
