import { age, at, isAlreadyExists, str, type FieldError, type KubeObject } from '@kapi/apimachinery';
import type { GroupPlugin } from '@kapi/apiserver';
import { group } from '../generated/index.js';
import { priorityAdmission } from './priority.js';

/** The PriorityClasses kube-apiserver creates at start (pkg/apis/scheduling SystemPriorityClasses). */
export const SYSTEM_PRIORITY_CLASSES = [
  {
    name: 'system-node-critical',
    value: 2000001000,
    description: 'Used for system critical pods that must not be moved from their current node.',
  },
  {
    name: 'system-cluster-critical',
    value: 2000000000,
    description: 'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.',
  },
];

const SYSTEM_NAMES = new Set(SYSTEM_PRIORITY_CLASSES.map((c) => c.name));
const HIGHEST_USER_DEFINABLE_PRIORITY = 1000000000;

/** The parts of kube's ValidatePriorityClass clients meet: reserved names and values. */
function validate(obj: KubeObject): FieldError[] {
  const name = str(obj.metadata?.name);
  const value = at(obj, 'value');
  if (SYSTEM_NAMES.has(name)) return [];
  const errs: FieldError[] = [];
  if (name.startsWith('system-')) {
    errs.push({ type: 'FieldValueForbidden', field: 'metadata.name', message: "priority class names with 'system-' prefix are reserved for system use only" });
  }
  if (typeof value === 'number' && value > HIGHEST_USER_DEFINABLE_PRIORITY) {
    errs.push({ type: 'FieldValueForbidden', field: 'value', message: `maximum allowed value of a user defined priority is ${HIGHEST_USER_DEFINABLE_PRIORITY}` });
  }
  return errs;
}

/**
 * The scheduling.k8s.io group as a server installs it: PriorityClasses whose value and preemption policy never
 * change, names and values kube reserves for the system, the two system classes at start, the table printer, and
 * kube's Priority admission (pods get their class's priority; one global default).
 */
export const plugin: GroupPlugin = {
  definition: group,
  strategies: {
    PriorityClass: {
      validate,
      validateUpdate(obj, old) {
        const errs = validate(obj);
        if (at(obj, 'value') !== at(old, 'value')) errs.push({ type: 'FieldValueForbidden', field: 'value', message: 'may not be changed in an update.' });
        if (at(obj, 'preemptionPolicy') !== at(old, 'preemptionPolicy')) {
          errs.push({ type: 'FieldValueInvalid', field: 'preemptionPolicy', badValue: at(obj, 'preemptionPolicy'), message: 'field is immutable' });
        }
        return errs;
      },
    },
  },
  printers: {
    PriorityClass: {
      cells: {
        Value: (obj) => at(obj, 'value') ?? 0,
        'Global-Default': (obj) => at(obj, 'globalDefault') === true,
        Age: age,
        PreemptionPolicy: (obj) => str(at(obj, 'preemptionPolicy')) || '<unset>',
      },
    },
  },
  install(host) {
    const entry = host.registry.byKind('scheduling.k8s.io', 'v1', 'PriorityClass');
    if (!entry) return;
    host.addAdmission(priorityAdmission(host, entry));
    const ctx = host.systemContext(entry);
    host.onStart(async () => {
      for (const { name, value, description } of SYSTEM_PRIORITY_CLASSES) {
        if (await host.store.find(ctx, name)) continue;
        try {
          await host.store.create(ctx, { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name }, value, description });
        } catch (err) {
          if (!isAlreadyExists(err)) throw err;
        }
      }
    });
  },
};
