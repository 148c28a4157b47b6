import { isObj, newNotFound, type KubeObject } from '@kapi/apimachinery';
import type { PluginHost } from '@kapi/apiserver';
import { keepInEveryNamespace } from './namespaced-singleton.js';

/** The ConfigMap kube's root CA publisher keeps in every namespace (the projected token volume mounts its ca.crt). */
export const ROOT_CA_CONFIG_MAP = 'kube-root-ca.crt';
const DESCRIPTION_ANNOTATION = 'kubernetes.io/description';
const DESCRIPTION =
  'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. ' +
  'No other usage is guaranteed across distributions of Kubernetes clusters.';

/** Whether a stored kube-root-ca.crt holds exactly the bundle and has its description (kube's check before updating). */
function current(cm: KubeObject, ca: string): boolean {
  const data = isObj(cm.data) ? cm.data : {};
  const annotations = isObj(cm.metadata?.annotations) ? cm.metadata.annotations : {};
  return Object.keys(data).length === 1 && data['ca.crt'] === ca && !!annotations[DESCRIPTION_ANNOTATION];
}

/**
 * kube-controller-manager's root-ca-cert-publisher: every namespace that is not being deleted has a
 * `kube-root-ca.crt` ConfigMap whose `ca.crt` is the CA bundle that verifies this server, made when the namespace
 * appears and put back when it is deleted or changed.
 */
export function publishRootCA(host: PluginHost, ca: string): void {
  const configMaps = host.registry.byKind('', 'v1', 'ConfigMap');
  if (!configMaps) return;
  keepInEveryNamespace(host, configMaps, ROOT_CA_CONFIG_MAP, 'root-ca-cert-publisher', async (ctx, namespace, found) => {
    if (!found) {
      const metadata = { name: ROOT_CA_CONFIG_MAP, namespace, annotations: { [DESCRIPTION_ANNOTATION]: DESCRIPTION } };
      await host.store.create(ctx, { apiVersion: 'v1', kind: 'ConfigMap', metadata, data: { 'ca.crt': ca } });
    } else if (!current(found, ca)) {
      await host.store.update(ctx, ROOT_CA_CONFIG_MAP, (cm) => {
        if (!cm) throw newNotFound({ group: '', resource: 'configmaps' }, ROOT_CA_CONFIG_MAP);
        const annotations = { ...(isObj(cm.metadata?.annotations) ? cm.metadata.annotations : {}) };
        annotations[DESCRIPTION_ANNOTATION] ||= DESCRIPTION;
        return { ...cm, metadata: { ...cm.metadata, annotations }, data: { 'ca.crt': ca } };
      });
    }
  });
}
