import { createServer, type Server } from 'node:https';
import { createServer as createTcpServer, type Server as TcpServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { getRequestListener } from '@hono/node-server';
import { plugin as wardle } from '@kapi/api-wardle';
import { createApiServer, type ApiServer } from '@kapi/apiserver';
import { createMemoryBackend } from '@kapi/storage';
import type { KeyPair } from './pki.js';

/** What one request reaching the extension carried. */
export interface SeenRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** The client certificate's CN, when one verified against the front-proxy CA. */
  clientCN?: string;
}

/** A real HTTPS extension server serving wardle.example.com from its own memory storage; records every request. */
export interface TestExtension {
  port: number;
  api: ApiServer;
  seen: SeenRequest[];
  /** Stops listening and drops every connection (open watches included). */
  close(): Promise<void>;
  /** Listens again on the same port. */
  restart(): Promise<void>;
}

export async function startExtension(serving: KeyPair, frontProxyCA: Buffer, port = 0): Promise<TestExtension> {
  const api = createApiServer({ storage: createMemoryBackend(), plugins: [wardle] });
  await api.start();
  const seen: SeenRequest[] = [];
  const listener = getRequestListener((request) => api.fetch(request));
  const make = () =>
    createServer({ ...serving, ca: frontProxyCA, requestCert: true, rejectUnauthorized: false }, (req, res) => {
      const socket = req.socket as TLSSocket;
      const cn = socket.authorized ? socket.getPeerCertificate().subject?.CN : undefined;
      seen.push({ method: req.method ?? '', path: req.url ?? '', headers: { ...req.headers }, clientCN: Array.isArray(cn) ? cn[0] : cn });
      void listener(req, res);
    });
  // Every TCP connection, a TLS handshake in progress included: closeAllConnections() knows only HTTP connections, and
  // a check's connection caught mid-handshake would become one after close() and keep the server from ever closing
  // (the availability checker reuses it every resync).
  const sockets = new Set<Socket>();
  const track = (s: Server) =>
    s.on('connection', (socket: Socket) => {
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
    });
  let server: Server = track(make());
  // A listen that fails (the port taken meanwhile by another process, on restart) says so instead of hanging.
  const listen = (p: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(p, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  await listen(port);
  const bound = (server.address() as AddressInfo).port;
  const ext: TestExtension = {
    port: bound,
    api,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        for (const socket of sockets) socket.destroy();
      }),
    async restart() {
      server = track(make());
      await listen(bound);
    },
  };
  return ext;
}

/** A server that takes connections and never answers (not even TLS): a hung extension. */
export async function startHungServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: TcpServer = createTcpServer((socket) => void sockets.add(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
