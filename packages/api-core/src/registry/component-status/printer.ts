import { at, listAt, str, type KubeObject, type TablePrinter } from '@kapi/apimachinery';

/** The `Healthy` condition's columns as kube's printComponentStatus shows them: `Unknown` when there is none. */
function healthy(obj: KubeObject): { status: string; message: string; error: string } {
  const condition = listAt(obj, 'conditions').find((c) => at(c, 'type') === 'Healthy');
  if (!condition) return { status: 'Unknown', message: '', error: '' };
  return { status: at(condition, 'status') === 'True' ? 'Healthy' : 'Unhealthy', message: str(at(condition, 'message')), error: str(at(condition, 'error')) };
}

/** kubectl get componentstatuses: NAME, STATUS (Healthy or Unhealthy), MESSAGE, ERROR. */
export const componentStatusPrinter: TablePrinter = {
  cells: {
    Status: (obj) => healthy(obj).status,
    Message: (obj) => healthy(obj).message,
    Error: (obj) => healthy(obj).error,
  },
};
