import type { AdmissionPlugin } from '@kapi/apiserver';

type Toleration = { key?: string; operator?: string; value?: string; effect?: string; tolerationSeconds?: number };

export const TAINT_NODE_NOT_READY = 'node.kubernetes.io/not-ready';
export const TAINT_NODE_UNREACHABLE = 'node.kubernetes.io/unreachable';

/** kube-apiserver's `--default-not-ready-toleration-seconds` and `--default-unreachable-toleration-seconds`. */
export interface DefaultTolerationSecondsOptions {
  notReadySeconds?: number;
  unreachableSeconds?: number;
}

/** Whether `tolerations` already tolerate `key`'s NoExecute taint as kube's plugin decides (empty key or effect: any). */
const tolerates = (tolerations: Toleration[], key: string): boolean =>
  tolerations.some((t) => (!t.key || t.key === key) && (!t.effect || t.effect === 'NoExecute'));

/**
 * kube's DefaultTolerationSeconds admission (plugin/pkg/admission/defaulttolerationseconds), on by default: a Pod
 * written (created or updated, not through a subresource) that does not tolerate the NoExecute taints of a node
 * that is not ready or unreachable gets a toleration of each for 300 seconds, appended to its own.
 */
export function defaultTolerationSecondsAdmission(options: DefaultTolerationSecondsOptions = {}): AdmissionPlugin {
  const { notReadySeconds = 300, unreachableSeconds = 300 } = options;
  return {
    name: 'DefaultTolerationSeconds',
    operations: ['CREATE', 'UPDATE'],
    mutate(attrs) {
      if (attrs.subresource || attrs.resource.group !== '' || attrs.resource.kind !== 'Pod' || !attrs.object) return;
      const spec = (attrs.object.spec ??= {}) as { tolerations?: Toleration[] };
      const own = spec.tolerations ?? [];
      const added: Toleration[] = [];
      if (!tolerates(own, TAINT_NODE_NOT_READY)) {
        added.push({ key: TAINT_NODE_NOT_READY, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: notReadySeconds });
      }
      if (!tolerates(own, TAINT_NODE_UNREACHABLE)) {
        added.push({ key: TAINT_NODE_UNREACHABLE, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: unreachableSeconds });
      }
      if (added.length) spec.tolerations = [...own, ...added];
    },
  };
}
