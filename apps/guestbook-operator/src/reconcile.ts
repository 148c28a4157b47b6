import type { apps } from '@kapi/api-apps/client';
import type { core } from '@kapi/api-core/client';
import type { Client, ReconcileRequest, ReconcileResult } from '@kapi/client';
import { guestbooks, type Guestbook, type GuestbookStatus } from './guestbook.js';

export type OperatorClient = Client<{ core: typeof core; apps: typeof apps }>;

/** Who owns the fields the operator sets (server-side apply). */
export const FIELD_MANAGER = 'guestbook-operator';

const labelsOf = (gb: Guestbook) => ({ 'app.kubernetes.io/name': 'guestbook', 'app.kubernetes.io/instance': gb.metadata!.name! });

/** The reference that makes the guestbook own an object: deleting it deletes them (garbage collection). */
const ownerOf = (gb: Guestbook) => ({
  apiVersion: gb.apiVersion,
  kind: gb.kind,
  name: gb.metadata!.name!,
  uid: gb.metadata!.uid!,
  controller: true,
  blockOwnerDeletion: true,
});

/** The Deployment running the guestbook's pods. */
export function desiredDeployment(gb: Guestbook) {
  const labels = labelsOf(gb);
  return {
    apiVersion: 'apps/v1' as const,
    kind: 'Deployment' as const,
    metadata: { name: gb.metadata!.name!, namespace: gb.metadata!.namespace, labels, ownerReferences: [ownerOf(gb)] },
    spec: {
      replicas: gb.spec.replicas ?? 1,
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: {
          containers: [{ name: 'guestbook', image: gb.spec.image ?? 'registry.k8s.io/guestbook:v3', ports: [{ name: 'http', containerPort: 3000 }] }],
        },
      },
    },
  };
}

/** The Service in front of the pods. */
export function desiredService(gb: Guestbook) {
  const labels = labelsOf(gb);
  return {
    apiVersion: 'v1' as const,
    kind: 'Service' as const,
    metadata: { name: gb.metadata!.name!, namespace: gb.metadata!.namespace, labels, ownerReferences: [ownerOf(gb)] },
    spec: { selector: labels, ports: [{ name: 'http', port: gb.spec.port ?? 80, targetPort: 'http' }] },
  };
}

const sameStatus = (a: GuestbookStatus | undefined, b: GuestbookStatus) =>
  a !== undefined && (Object.keys(b) as (keyof GuestbookStatus)[]).every((k) => a[k] === b[k]);

/**
 * Makes the world match one guestbook: its Deployment and Service applied (server-side, so fields others set, such as
 * an autoscaler's, are left alone unless they are the operator's), and its status written from what they report.
 * A guestbook that is gone needs nothing: what it owns is garbage collected.
 */
export async function reconcileGuestbook(client: OperatorClient, request: ReconcileRequest, gb: Guestbook | undefined): Promise<ReconcileResult> {
  if (!gb || gb.metadata?.deletionTimestamp) return;
  const ns = request.namespace!;
  const apply = { fieldManager: FIELD_MANAGER, force: true };
  const deployment = await client.apps.v1.deployments.namespace(ns).apply(desiredDeployment(gb), apply);
  const service = await client.core.v1.services.namespace(ns).apply(desiredService(gb), apply);
  const want = gb.spec.replicas ?? 1;
  const ready = deployment.status?.readyReplicas ?? 0;
  const status: GuestbookStatus = {
    observedGeneration: gb.metadata?.generation,
    readyReplicas: ready,
    serviceIP: service.spec?.clusterIP,
    phase: ready >= want ? 'Ready' : 'Progressing',
  };
  if (!sameStatus(gb.status, status)) {
    await client.resource(guestbooks).namespace(ns).status.patch(request.name, { status });
  }
}
