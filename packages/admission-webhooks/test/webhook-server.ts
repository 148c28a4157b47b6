import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TestPki } from './tls.js';

/** What a test webhook answers for one AdmissionReview request: a response (uid filled in), or raw text. */
export type ReviewHandler = (request: any, path: string) => Promise<Record<string, unknown> | { raw: string; status?: number }> | Record<string, unknown> | { raw: string; status?: number };

/** A real HTTPS admission webhook server for tests: records every review it is sent. */
export interface TestWebhook {
  url(path: string): string;
  port: number;
  reviews: { path: string; review: any }[];
  handle(path: string, handler: ReviewHandler): void;
  close(): Promise<void>;
}

export const patchOf = (ops: unknown[]) => ({ patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(ops)).toString('base64') });

export async function startWebhook(pki: TestPki): Promise<TestWebhook> {
  const handlers = new Map<string, ReviewHandler>();
  const reviews: TestWebhook['reviews'] = [];
  const server: Server = createServer({ key: pki.key, cert: pki.cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const path = (req.url ?? '/').split('?')[0];
      const review = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      reviews.push({ path, review });
      const handler = handlers.get(path) ?? (() => ({ allowed: true }));
      const out = await handler(review.request, path);
      res.setHeader('content-type', 'application/json');
      if ('raw' in out) {
        res.statusCode = (out as { status?: number }).status ?? 200;
        res.end((out as { raw: string }).raw);
        return;
      }
      res.end(JSON.stringify({ apiVersion: review.apiVersion, kind: 'AdmissionReview', response: { uid: review.request.uid, ...out } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: (path) => `https://127.0.0.1:${port}${path}`,
    reviews,
    handle: (path, handler) => void handlers.set(path, handler),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
