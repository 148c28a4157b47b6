import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { certificateOps, localCertificates, type CertificateMaker, type CertificateNames, type CertificateSet, type LeafRequest, type Pair } from './certificates.js';
import type { CertificateAnswer, CertificateRequest } from './certificate-worker.js';
import {
  ADMIN_SUBJECT,
  CLIENT_CA_NAME,
  CLIENT_CERT_FILES,
  FRONT_PROXY_CA_NAME,
  FRONT_PROXY_CLIENT,
  FRONT_PROXY_FILES,
  TLS_FILES,
  servingNames,
  withKubernetesNames,
} from './tls.js';

/** Which of the generated certificate sets a start will need, as `serveApiServer` and the front proxy make them. */
export interface CertificateSets {
  dataDir: string;
  /** The serving CA and certificate (the secure port without --tls-cert-file), for this bind address and these extra names. */
  serving?: { bindAddress: string; names?: readonly string[] } | false;
  /** The client CA and the admin's certificate (the secure port without --client-ca-file). */
  client?: boolean;
  /** The front-proxy CA and client certificate (no --proxy-client-cert-file). */
  frontProxy?: boolean;
}

/** A CertificateMaker to hand to the ensure functions and serveApiServer; `close()` once they are done. */
export interface PreparedCertificates extends CertificateMaker {
  close(): void;
}

const WORKER = new URL('./certificate-worker.js', import.meta.url);

const missingIn = (dataDir: string, files: Record<string, string>) => Object.values(files).some((f) => !existsSync(join(dataDir, f)));

/** A worker thread started ahead ({@link startCertificateWorker}), to hand to {@link prepareCertificates}. */
export interface CertificateWorker {
  readonly worker: Worker;
  /** Whether the thread has ended (failed to load, or terminated): then certificates are made in this thread. */
  readonly exited: boolean;
}

/**
 * Starts the certificate worker thread when the data dir lacks a certificate set the start will need, so that it
 * loads the x509 library while the program loads the rest; undefined when every such set is there (a restart) or the
 * worker file is not built (running from sources). Only a warm-up: {@link prepareCertificates} decides what is made,
 * and ends the worker when nothing is.
 */
export function startCertificateWorker(sets: CertificateSets): CertificateWorker | undefined {
  if (!neededSets(sets).some(Boolean)) return undefined;
  try {
    if (!existsSync(fileURLToPath(WORKER))) return undefined;
    const worker = new Worker(WORKER);
    worker.unref();
    const started = { worker, exited: false };
    // A worker that failed to load, or ended, leaves the certificates to this thread.
    worker.on('error', () => undefined);
    worker.once('exit', () => (started.exited = true));
    return started;
  } catch {
    return undefined;
  }
}

/** The sets to make: serving, client and front proxy, each when wanted and missing from the data dir. */
function neededSets(sets: CertificateSets) {
  return [
    sets.serving && missingIn(sets.dataDir, TLS_FILES) ? sets.serving : undefined,
    !!sets.client && missingIn(sets.dataDir, CLIENT_CERT_FILES),
    !!sets.frontProxy && missingIn(sets.dataDir, FRONT_PROXY_FILES),
  ] as const;
}

/**
 * Starts making the certificates a first start will need, off the main thread: a worker thread (the one `started`
 * ahead, or a new one) makes each set whose files are missing from the data dir, in memory; nothing is written. The
 * ensure functions given the returned maker then find what they ask for already made (the same CA name, subject and
 * names ask for the same certificate), or have the worker make it. When every set needed is on disk already (a
 * restart), no worker is used. Running from sources (no built worker file), certificates are made in this thread.
 */
export function prepareCertificates(sets: CertificateSets, started?: CertificateWorker): PreparedCertificates {
  const [serving, client, frontProxy] = neededSets(sets);
  const local = { ...localCertificates, close() {} };
  if (!serving && !client && !frontProxy) {
    void started?.worker.terminate();
    return local;
  }
  const worker = started ?? startCertificateWorker(sets);
  if (!worker || worker.exited) return local;
  const maker = new WorkerMaker(worker.worker);
  const now = new Date();
  if (serving) maker.prepareSet(now, undefined, { serving: servingNames(serving.bindAddress, withKubernetesNames(serving.names)) });
  if (client) maker.prepareSet(now, CLIENT_CA_NAME, { client: { user: ADMIN_SUBJECT.user, groups: [...ADMIN_SUBJECT.groups] } });
  if (frontProxy) maker.prepareSet(now, FRONT_PROXY_CA_NAME, { client: { user: FRONT_PROXY_CLIENT, groups: [] } });
  return maker;
}

const caKey = (name: string | undefined) => `ca\0${name ?? ''}`;
const leafKey = (ca: Pair, leaf: LeafRequest) =>
  'client' in leaf ? `client\0${ca.cert}\0${leaf.client.user}\0${leaf.client.groups.join('\0')}` : `serving\0${ca.cert}\0${JSON.stringify(leaf.serving)}`;

/** Certificates made by the worker, each asked for once (by what it is for, not when): later asks get the same one. */
class WorkerMaker implements PreparedCertificates {
  private readonly made = new Map<string, Promise<Pair>>();
  private readonly pending = new Map<number, { request: CertificateRequest; resolve: (result: unknown) => void; reject: (error: Error) => void }>();
  private next = 0;
  private worker: Worker | undefined;

  constructor(worker: Worker) {
    this.worker = worker;
    worker.on('message', (answer: CertificateAnswer) => {
      const call = this.pending.get(answer.id);
      if (!call) return;
      this.pending.delete(answer.id);
      if ('error' in answer) call.reject(new Error(answer.error));
      else call.resolve(answer.result);
    });
    // A worker that dies leaves its work to this thread.
    const orphan = () => {
      this.worker = undefined;
      for (const { request, resolve, reject } of this.pending.values()) this.local(request).then(resolve, reject);
      this.pending.clear();
    };
    worker.on('error', orphan);
    worker.on('exit', orphan);
  }

  createCa(now: Date, name?: string): Promise<Pair> {
    return this.ask(caKey(name), { op: 'createCa', args: name === undefined ? [now] : [now, name] });
  }

  createClientCertificate(ca: Pair, user: string, groups: string[], now = new Date()): Promise<Pair> {
    return this.ask(leafKey(ca, { client: { user, groups } }), { op: 'createClientCertificate', args: [ca, user, groups, now] });
  }

  createServingCertificate(ca: Pair, names: CertificateNames, now: Date): Promise<Pair> {
    return this.ask(leafKey(ca, { serving: names }), { op: 'createServingCertificate', args: [ca, names, now] });
  }

  /**
   * Has the worker make a CA and the certificate it signs in one go (asking for the leaf once the CA came back would
   * wait on this thread, busy loading the server): later asks for either get them.
   */
  prepareSet(now: Date, caName: string | undefined, leaf: LeafRequest): void {
    const set = this.call<CertificateSet>({ op: 'createCertificateSet', args: [now, caName, leaf] });
    // The CA is handed out only once its certificate is known to the asks that will follow.
    const ca = set.then(({ ca, leaf: made }) => {
      this.made.set(leafKey(ca, leaf), Promise.resolve(made));
      return ca;
    });
    ca.catch(() => undefined);
    this.made.set(caKey(caName), ca);
  }

  busy(): boolean {
    return this.pending.size > 0;
  }

  /** Ends the worker; certificates asked for later are made in this thread. */
  close(): void {
    const worker = this.worker;
    this.worker = undefined;
    void worker?.terminate();
  }

  private ask(key: string, call: Omit<CertificateRequest, 'id'>): Promise<Pair> {
    let made = this.made.get(key);
    if (!made) {
      made = this.call<Pair>(call);
      this.made.set(key, made);
    }
    return made;
  }

  /** Has the worker (or, once it is gone, this thread) run `call`. */
  private call<T>(call: Omit<CertificateRequest, 'id'>): Promise<T> {
    const request = { id: this.next++, ...call };
    const made = this.worker
      ? new Promise<T>((resolve, reject) => {
          this.pending.set(request.id, { request, resolve: resolve as (result: unknown) => void, reject });
          this.worker!.postMessage(request);
        })
      : (this.local(request) as Promise<T>);
    // Made ahead for an ensure function that may never ask (its files turned up): no unhandled rejection.
    made.catch(() => undefined);
    return made;
  }

  private local(request: CertificateRequest): Promise<unknown> {
    return (certificateOps[request.op] as (...a: unknown[]) => Promise<unknown>)(...request.args);
  }
}
