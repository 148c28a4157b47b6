import type { ResourceType } from '@kapi/client';

/** webapp.kapi.dev/v1 Guestbook: a web front end of `replicas` pods of `image`, behind a Service on `port`. */
export interface Guestbook {
  apiVersion: 'webapp.kapi.dev/v1';
  kind: 'Guestbook';
  metadata?: {
    name?: string;
    namespace?: string;
    uid?: string;
    resourceVersion?: string;
    generation?: number;
    labels?: Record<string, string>;
    deletionTimestamp?: string;
  };
  spec: {
    image?: string;
    replicas?: number;
    port?: number;
  };
  status?: GuestbookStatus;
}

export interface GuestbookStatus {
  /** The generation the status describes. */
  observedGeneration?: number;
  /** Pods of the front end that are ready, as the Deployment reports. */
  readyReplicas?: number;
  /** The Service's cluster IP, where the guestbook answers. */
  serviceIP?: string;
  /** Ready when every replica is; Progressing until then. */
  phase?: 'Progressing' | 'Ready';
}

export const guestbooks: ResourceType<Guestbook> = {
  group: 'webapp.kapi.dev',
  version: 'v1',
  kind: 'Guestbook',
  plural: 'guestbooks',
  namespaced: true,
  subresources: ['status'],
};

/** The CustomResourceDefinition the operator serves its kind with. */
export const guestbookCRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'guestbooks.webapp.kapi.dev' },
  spec: {
    group: 'webapp.kapi.dev',
    scope: 'Namespaced',
    names: { plural: 'guestbooks', singular: 'guestbook', kind: 'Guestbook', listKind: 'GuestbookList', shortNames: ['gb'] },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        subresources: { status: {} },
        additionalPrinterColumns: [
          { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' },
          { name: 'Ready', type: 'integer', jsonPath: '.status.readyReplicas' },
          { name: 'Phase', type: 'string', jsonPath: '.status.phase' },
          { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
        ],
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                properties: {
                  image: { type: 'string', default: 'registry.k8s.io/guestbook:v3' },
                  replicas: { type: 'integer', minimum: 0, maximum: 100, default: 1 },
                  port: { type: 'integer', minimum: 1, maximum: 65535, default: 80 },
                },
              },
              status: {
                type: 'object',
                properties: {
                  observedGeneration: { type: 'integer' },
                  readyReplicas: { type: 'integer' },
                  serviceIP: { type: 'string' },
                  phase: { type: 'string', enum: ['Progressing', 'Ready'] },
                },
              },
            },
          },
        },
      },
    ],
  },
};
