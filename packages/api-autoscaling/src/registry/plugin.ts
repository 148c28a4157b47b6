import { age, at, int, listAt, str, type KubeObject, type TablePrinter } from '@kapi/apimachinery';
import type { GroupPlugin } from '@kapi/apiserver';
import { group } from '../generated/index.js';
import { hpaConversion } from './hpa-conversion.js';
import { hpaStrategy } from './hpa-strategy.js';
import { hpaBehaviorDefaulter, hpaDefaulter, hpaSpecDefaulter, metricIdentifierDefaulter } from './hpa/defaults.js';

const UNKNOWN = '<unknown>';
const quantity = (v: unknown): string => (typeof v === 'number' ? String(v) : str(v));

/** The object as v2, whose fields the printer reads (kube prints the internal type, v2-shaped). */
const asV2 = (obj: KubeObject): KubeObject =>
  obj.apiVersion === 'autoscaling/v1' ? (hpaConversion.convert([obj], 'autoscaling/v2') as KubeObject[])[0]! : obj;

/** formatHPAMetrics: `current/target` per metric (`cpu: 40%/80%`, `<unknown>` before the first reading), two at most. */
function hpaTargets(hpa: KubeObject): string {
  const obj = asV2(hpa);
  const specs = listAt(obj, 'spec.metrics');
  if (specs.length === 0) return '<none>';
  const statuses = listAt(obj, 'status.currentMetrics');
  const list = specs.map((spec, i) => {
    const status = statuses[i];
    const type = str(at(spec, 'type'));
    const source = type === 'ContainerResource' ? 'containerResource' : type.charAt(0).toLowerCase() + type.slice(1);
    const target = at(spec, `${source}.target`);
    const current = (field: string) => {
      const v = at(status, `${source}.current.${field}`);
      return v === undefined ? UNKNOWN : quantity(v);
    };
    switch (type) {
      case 'External':
      case 'Object':
        return at(target, 'averageValue') !== undefined
          ? `${current('averageValue')}/${quantity(at(target, 'averageValue'))} (avg)`
          : `${current('value')}/${quantity(at(target, 'value'))}`;
      case 'Pods':
        return `${current('averageValue')}/${quantity(at(target, 'averageValue'))}`;
      case 'Resource':
      case 'ContainerResource': {
        const name = str(at(spec, `${source}.name`));
        if (at(target, 'averageValue') !== undefined) return `${name}: ${current('averageValue')}/${quantity(at(target, 'averageValue'))}`;
        const utilization = at(status, `${source}.current.averageUtilization`);
        const shownCurrent = typeof utilization === 'number' ? `${utilization}%` : UNKNOWN;
        const goal = at(target, 'averageUtilization');
        return `${name}: ${shownCurrent}/${typeof goal === 'number' ? `${goal}%` : '<auto>'}`;
      }
      default:
        return '<unknown type>';
    }
  });
  return list.length > 2 ? `${list.slice(0, 2).join(', ')} + ${list.length - 2} more...` : list.join(', ');
}

const hpa: TablePrinter = {
  cells: {
    Reference: (obj) => `${str(at(obj, 'spec.scaleTargetRef.kind'))}/${str(at(obj, 'spec.scaleTargetRef.name'))}`,
    Targets: hpaTargets,
    MinPods: (obj) => (typeof at(obj, 'spec.minReplicas') === 'number' ? String(at(obj, 'spec.minReplicas')) : '<unset>'),
    MaxPods: (obj) => int(at(obj, 'spec.maxReplicas')),
    Replicas: (obj) => int(at(obj, 'status.currentReplicas')),
    Age: age,
  },
};

/**
 * The autoscaling group as a server installs it: the HorizontalPodAutoscaler served as autoscaling/v1 and v2, stored
 * as v2, with its strategy (kube's validation), table printer and v2 behavior defaults.
 */
export const plugin: GroupPlugin = {
  definition: group,
  strategies: { HorizontalPodAutoscaler: hpaStrategy },
  printers: { HorizontalPodAutoscaler: hpa },
  conversions: { HorizontalPodAutoscaler: hpaConversion },
  defaulters: {
    'autoscaling/v1/HorizontalPodAutoscaler': hpaDefaulter,
    'autoscaling/v2/HorizontalPodAutoscaler': hpaDefaulter,
    'autoscaling/v2/HorizontalPodAutoscalerBehavior': hpaBehaviorDefaulter,
    'autoscaling/v2/HorizontalPodAutoscalerSpec': hpaSpecDefaulter,
    'autoscaling/v2/MetricIdentifier': metricIdentifierDefaulter,
  },
  // kube's validateHorizontalPodAutoscalerSpec (a v1 spec converted to the internal, v2-shaped one) judges every field
  // the schemas call required in a spec (scaleTargetRef and its kind and name, maxReplicas, a metric's type and its
  // source's fields, a target's type, a metric's name, a scaling policy's type, value and periodSeconds) at its zero
  // value; a metric selector's requirements it does not validate (see metricIdentifierDefaulter).
  validatedTypes: ['autoscaling/v1/HorizontalPodAutoscalerSpec', 'autoscaling/v2/HorizontalPodAutoscalerSpec'],
};
