import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { createApp } from './app.js';

export interface ServerOptions {
  /** Address to bind; kube-apiserver's --bind-address. */
  bindAddress: string;
  /** Port to listen on; 0 picks a free port. */
  port: number;
}

export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

/** Starts the sample server and resolves once it is listening. */
export function startServer(options: ServerOptions): Promise<RunningServer> {
  const app = createApp();
  return new Promise((resolve) => {
    const server = serve({ fetch: app.fetch, hostname: options.bindAddress, port: options.port }, (info: AddressInfo) => {
      const host = info.family === 'IPv6' ? `[${info.address}]` : info.address;
      resolve({
        url: `http://${host}:${info.port}`,
        close: () => new Promise<void>((done) => server.close(() => done())),
      });
    });
  });
}
