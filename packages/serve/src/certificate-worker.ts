// The worker thread of prepareCertificates: it loads the x509 library as soon as it starts (while the main thread
// loads the server), then makes the certificates it is asked for and posts them back.
import { parentPort } from 'node:worker_threads';
import { certificateOps, loadX509, type CertificateOp } from './certificates.js';

export interface CertificateRequest {
  id: number;
  op: CertificateOp;
  args: unknown[];
}

export type CertificateAnswer = { id: number; result: unknown } | { id: number; error: string };

void loadX509();
parentPort?.on('message', async ({ id, op, args }: CertificateRequest) => {
  try {
    const result = await (certificateOps[op] as (...a: unknown[]) => Promise<unknown>)(...args);
    parentPort!.postMessage({ id, result } satisfies CertificateAnswer);
  } catch (error) {
    parentPort!.postMessage({ id, error: error instanceof Error ? error.message : String(error) } satisfies CertificateAnswer);
  }
});
