import { asObjects, isObj, str, type KubeObject, type Obj } from '@kapi/apimachinery';
import { admissionForbidden, generateName, type AdmissionAttributes, type AdmissionPlugin, type PluginHost } from '@kapi/apiserver';
import { MIRROR_POD_ANNOTATION } from '../pod-annotations.js';
import { findCachedOrLive } from './lookup.js';

// kube 1.33's ServiceAccount admission plugin (plugin/pkg/admission/serviceaccount), on by default: a new Pod runs as
// a ServiceAccount that exists (`default` unless it names one), and gets its API credentials mounted as a projected
// volume (kube-api-access-xxxxx: a bound token, the cluster CA and the namespace) in every container, unless the
// pod or its account opts out; a static (mirror) pod may reference no account and no secret. An account annotated
// `kubernetes.io/enforce-mountable-secrets: "true"` limits its pods to the secrets it lists (and its pull secrets).

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

/** The annotation by which an account limits its pods to the secrets it lists. */
export const ENFORCE_MOUNTABLE_SECRETS = 'kubernetes.io/enforce-mountable-secrets';

/** Go's strconv.ParseBool true spellings (anything else, unparsable included, is false). */
const GO_TRUE = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);

/** kube's enforceMountableSecrets: the account's annotation, parsed as Go parses a bool. */
const enforcesMountableSecrets = (account: KubeObject) => {
  const value = account.metadata?.annotations?.[ENFORCE_MOUNTABLE_SECRETS];
  return typeof value === 'string' && GO_TRUE.has(value);
};

/** The secrets `account` lists (its `secrets`), and those it lists to pull images with. */
const listed = (account: KubeObject, key: 'secrets' | 'imagePullSecrets') => new Set(asObjects(account[key]).map((s) => str(s.name)));

/** kube's refusals of containers' environment referencing a secret the account does not list (`what`: "container"...). */
function containerSecretRefusal(containers: unknown, what: string, mountable: Set<string>, account: string): string | undefined {
  for (const c of asObjects(containers)) {
    for (const env of asObjects(c.env)) {
      const ref = isObj(env.valueFrom) && isObj(env.valueFrom.secretKeyRef) ? str(env.valueFrom.secretKeyRef.name) : undefined;
      if (ref !== undefined && !mountable.has(ref)) {
        return `${what} ${str(c.name)} with envVar ${str(env.name)} referencing secret.secretName="${ref}" is not allowed because service account ${account} does not reference that secret`;
      }
    }
    for (const from of asObjects(c.envFrom)) {
      const ref = isObj(from.secretRef) ? str(from.secretRef.name) : undefined;
      if (ref !== undefined && !mountable.has(ref)) {
        return `${what} ${str(c.name)} with envFrom referencing secret.secretName="${ref}" is not allowed because service account ${account} does not reference that secret`;
      }
    }
  }
  return undefined;
}

/**
 * kube's limitSecretReferences: what a new pod of an account that enforces mountable secrets may not reference, a
 * secret volume, an init or app container's environment, or a pull secret the account does not list.
 */
function secretReferenceRefusal(spec: Obj, account: KubeObject): string | undefined {
  const mountable = listed(account, 'secrets');
  const name = str(account.metadata?.name);
  for (const v of asObjects(spec.volumes)) {
    if (!isObj(v.secret)) continue;
    const secret = str(v.secret.secretName);
    if (!mountable.has(secret)) return `volume with secret.secretName="${secret}" is not allowed because service account ${name} does not reference that secret`;
  }
  const refusal = containerSecretRefusal(spec.initContainers, 'init container', mountable, name) ?? containerSecretRefusal(spec.containers, 'container', mountable, name);
  if (refusal) return refusal;
  const pullable = listed(account, 'imagePullSecrets');
  const pulls = asObjects(spec.imagePullSecrets);
  for (let i = 0; i < pulls.length; i++) {
    const secret = str(pulls[i].name);
    if (!pullable.has(secret)) return `imagePullSecrets[${i}].name="${secret}" is not allowed because service account ${name} does not reference that imagePullSecret`;
  }
  return undefined;
}

/** kube's shouldAutomount: the pod's automountServiceAccountToken, else its account's, else true. */
function automounts(spec: Obj, account: KubeObject): boolean {
  if (typeof spec.automountServiceAccountToken === 'boolean') return spec.automountServiceAccountToken;
  if (typeof account.automountServiceAccountToken === 'boolean') return account.automountServiceAccountToken;
  return true;
}

const isPod = (attrs: AdmissionAttributes) => attrs.resource.group === '' && attrs.resource.plural === 'pods' && !!attrs.object;
const isNewPod = (attrs: AdmissionAttributes) => attrs.operation === 'CREATE' && !attrs.subresource && isPod(attrs);
/** An update of a pod's ephemeral containers (kubectl debug): their environment is held to the account's secrets. */
const isEphemeralUpdate = (attrs: AdmissionAttributes) => attrs.operation === 'UPDATE' && attrs.subresource === 'ephemeralcontainers' && isPod(attrs);

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

  /** The account a pod names, which must exist (kube refuses a pod that names none). */
  const podAccount = async (attrs: AdmissionAttributes, spec: Obj): Promise<KubeObject> => {
    const name = str(spec.serviceAccountName);
    if (!name) throw admissionForbidden(attrs, `no service account specified for pod ${attrs.namespace}/${str(attrs.object?.metadata?.name)}`);
    return account(attrs, name);
  };

  return {
    name: 'ServiceAccount',
    operations: ['CREATE', 'UPDATE'],
    matches: isPod,
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
      if (isEphemeralUpdate(attrs)) return limitEphemeralContainers(attrs);
      if (!isNewPod(attrs)) return;
      const pod = attrs.object!;
      const spec = isObj(pod.spec) ? pod.spec : {};
      if (isMirror(pod)) {
        const refusal = mirrorPodRefusal(spec);
        if (refusal) throw admissionForbidden(attrs, refusal);
        return;
      }
      const found = await podAccount(attrs, spec);
      const refusal = enforcesMountableSecrets(found) ? secretReferenceRefusal(spec, found) : undefined;
      if (refusal) throw admissionForbidden(attrs, refusal);
    },
  };

  /** kube's limitEphemeralContainerSecretReferences. */
  async function limitEphemeralContainers(attrs: AdmissionAttributes): Promise<void> {
    const spec = isObj(attrs.object!.spec) ? attrs.object!.spec : {};
    const found = await podAccount(attrs, spec);
    if (!enforcesMountableSecrets(found)) return;
    const refusal = containerSecretRefusal(spec.ephemeralContainers, 'ephemeral container', listed(found, 'secrets'), str(found.metadata?.name));
    if (refusal) throw admissionForbidden(attrs, refusal);
  }
}
