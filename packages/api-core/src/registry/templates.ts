import { at, listAt, str, type CellComputer } from '@kapi/apimachinery';

/**
 * kube's layoutContainerCells for a kind that embeds a pod template: the Containers and Images cells (names and
 * images, comma-joined) of the PodSpec at `specPath` (`spec.template.spec` for Deployments, ...).
 */
export function podTemplateCells(specPath = 'spec.template.spec'): { Containers: CellComputer; Images: CellComputer } {
  const containers = (obj: unknown): unknown[] => listAt(obj, `${specPath}.containers`);
  return {
    Containers: (obj) => containers(obj).map((c) => str(at(c, 'name'))).join(','),
    Images: (obj) => containers(obj).map((c) => str(at(c, 'image'))).join(','),
  };
}
