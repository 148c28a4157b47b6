import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';

/** kube-apiserver's limit on a request line and headers together (Go's http.DefaultMaxHeaderBytes): 1 MiB. */
export const MAX_HEADER_BYTES = 1 << 20;

/**
 * TLS 1.2 cipher suites offered: Go's defaults as kube-apiserver serves them, ECDHE key exchange with AES-GCM or
 * ChaCha20-Poly1305 only (no CBC, CCM or ARIA suites). TLS 1.3 suites are Node's, all AEAD.
 */
export const TLS12_CIPHERS = [
  'ECDHE-ECDSA-AES128-GCM-SHA256',
  'ECDHE-RSA-AES128-GCM-SHA256',
  'ECDHE-ECDSA-AES256-GCM-SHA384',
  'ECDHE-RSA-AES256-GCM-SHA384',
  'ECDHE-ECDSA-CHACHA20-POLY1305',
  'ECDHE-RSA-CHACHA20-POLY1305',
].join(':');

/** A kube Status body for a failure Node answers before any request exists (no handler runs). */
const status = (code: number, reason: string, message: string) =>
  JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code }) + '\n';

/**
 * Answers requests Node's HTTP parser refuses with a kube Status instead of Node's bare text: 431 for a request line
 * and headers over {@link MAX_HEADER_BYTES}, 400 for anything malformed. The connection is closed after it.
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (!socket.writable) return socket.destroy();
    const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
    const [code, reason, text, message] = tooLarge
      ? [431, 'RequestHeaderFieldsTooLarge', 'Request Header Fields Too Large', `request headers are larger than ${MAX_HEADER_BYTES} bytes`]
      : [400, 'BadRequest', 'Bad Request', 'malformed HTTP request'];
    const body = status(code as number, reason as string, message as string);
    socket.end(
      `HTTP/1.1 ${code} ${text}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
