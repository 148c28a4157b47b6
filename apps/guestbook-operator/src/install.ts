import { isAlreadyExists, isNotFound, type BaseClient } from '@kapi/client';
import { guestbookCRD, guestbooks } from './guestbook.js';

const crds = { group: 'apiextensions.k8s.io', version: 'v1', kind: 'CustomResourceDefinition', plural: 'customresourcedefinitions', namespaced: false };

/** Creates the Guestbook CustomResourceDefinition unless it exists, and waits until guestbooks are served. */
export async function installGuestbookCRD(client: BaseClient, timeoutMs = 30_000): Promise<void> {
  try {
    await client.resource(crds).create(guestbookCRD);
  } catch (error) {
    if (!isAlreadyExists(error)) throw error;
  }
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await client.resource(guestbooks).list({ limit: 1 });
      return;
    } catch (error) {
      if (!isNotFound(error) || Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}
