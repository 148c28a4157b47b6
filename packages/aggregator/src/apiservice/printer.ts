// kube's printAPIService (pkg/printers/internalversion/printers.go).
import { age, type KubeObject, type TablePrinter } from '@kapi/apimachinery';
import { availableCondition, type APIService } from './types.js';

/** SERVICE is `<namespace>/<name>`, or `Local`; AVAILABLE the condition's status, `False (<reason>)` with a reason, `Unknown` without one. */
export const apiServicePrinter: TablePrinter = {
  cells: {
    Service: (o: KubeObject) => {
      const service = (o as APIService).spec?.service;
      return service ? `${service.namespace ?? ''}/${service.name ?? ''}` : 'Local';
    },
    Available: (o: KubeObject) => {
      const condition = availableCondition(o as APIService);
      if (!condition) return 'Unknown';
      return condition.status === 'False' && condition.reason ? `False (${condition.reason})` : condition.status;
    },
    Age: age,
  },
};
