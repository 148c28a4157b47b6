import { createController, type Controller } from '@kapi/client';
import { guestbooks, type Guestbook } from './guestbook.js';
import { reconcileGuestbook, type OperatorClient } from './reconcile.js';

export interface GuestbookOperatorOptions {
  client: OperatorClient;
  /** Watch one namespace only (all by default). */
  namespace?: string;
  /** Guestbooks reconciled at once (2). */
  concurrency?: number;
  onError?: (error: unknown) => void;
}

/**
 * The operator: a controller for Guestbooks that owns Deployments and Services, so a change to either (an edit, a
 * deletion, the Deployment's status) reconciles the guestbook that owns it.
 */
export function createGuestbookOperator(options: GuestbookOperatorOptions): Controller<Guestbook> {
  const { client, namespace } = options;
  const scoped = <T extends { namespace(ns: string): T }>(r: T) => (namespace ? r.namespace(namespace) : r);
  return createController<Guestbook>({
    name: 'guestbook',
    for: scoped(client.resource(guestbooks)),
    owns: [scoped(client.apps.v1.deployments), scoped(client.core.v1.services)],
    concurrency: options.concurrency ?? 2,
    onError: options.onError && ((error) => options.onError!(error)),
    reconcile: (request, { object }) => reconcileGuestbook(client, request, object),
  });
}
