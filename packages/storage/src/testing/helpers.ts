import { afterEach, beforeEach, expect } from 'vitest';
import { isStorageError, type StorageError, type StorageErrorCode } from '../errors.js';
import type { KeyValue, StorageBackend, StorageWatch, StorageWatchEvent, WatchOptions } from '../types.js';

export type BackendFactory = () => Promise<StorageBackend> | StorageBackend;

/** Gives each test a fresh backend from `factory` and closes it afterwards. */
export function useBackend(factory: BackendFactory): () => StorageBackend {
  let backend: StorageBackend | undefined;
  beforeEach(async () => {
    backend = await factory();
  });
  afterEach(async () => {
    await backend?.close();
    backend = undefined;
  });
  return () => {
    if (!backend) throw new Error('the backend is only available inside a test');
    return backend;
  };
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export const bytes = (text: string): Uint8Array => encoder.encode(text);
export const text = (value: Uint8Array): string => decoder.decode(value);

/** A KeyValue with its value as text, for readable exact assertions. */
export interface KvView {
  key: string;
  value: string;
  createRevision: number;
  modRevision: number;
}

export function view(kv: KeyValue): KvView;
export function view(kv: KeyValue | undefined): KvView | undefined;
export function view(kv: KeyValue | undefined): KvView | undefined {
  return kv && { key: kv.key, value: text(kv.value), createRevision: kv.createRevision, modRevision: kv.modRevision };
}

export interface EventView {
  type: StorageWatchEvent['type'];
  kv: KvView;
  prevKv?: KvView;
  created: boolean;
}

export function viewEvent(e: StorageWatchEvent): EventView {
  const v: EventView = { type: e.type, kv: view(e.kv), created: e.created };
  if (e.prevKv) v.prevKv = view(e.prevKv);
  return v;
}

export const kv = (key: string, value: string, createRevision: number, modRevision: number): KvView => ({
  key,
  value,
  createRevision,
  modRevision,
});

/** Awaits `promise` and asserts it rejected with a StorageError of `code`. */
export async function expectStorageError(promise: Promise<unknown>, code: StorageErrorCode): Promise<StorageError> {
  let result: unknown;
  try {
    result = await promise;
  } catch (err) {
    expect(isStorageError(err) ? err.code : err).toBe(code);
    return err as StorageError;
  }
  throw new Error(`expected a StorageError ${code}, got ${JSON.stringify(result)}`);
}

/** A watch whose events and error are recorded; `next(n)` resolves once n events arrived in total. */
export interface Recorder {
  readonly events: StorageWatchEvent[];
  readonly errors: Error[];
  readonly watch: StorageWatch;
  next(count: number): Promise<EventView[]>;
  failure(): Promise<Error>;
}

export function record(
  backend: StorageBackend,
  options: WatchOptions,
  onEvent?: (e: StorageWatchEvent) => void,
): Recorder {
  const events: StorageWatchEvent[] = [];
  const errors: Error[] = [];
  const listeners = new Set<() => void>();
  const notify = () => listeners.forEach((l) => l());
  const until = <T>(ready: () => T | undefined): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const check = () => {
        try {
          const value = ready();
          if (value === undefined) return;
          resolve(value);
        } catch (err) {
          reject(err);
        }
        listeners.delete(check);
      };
      listeners.add(check);
      check();
    });
  const watch = backend.watch(options, {
    onEvent(e) {
      onEvent?.(e);
      events.push(e);
      notify();
    },
    onError(err) {
      errors.push(err);
      notify();
    },
  });
  return {
    events,
    errors,
    watch,
    next: (count) =>
      until(() => {
        if (errors.length > 0) throw errors[0];
        return events.length >= count ? events.slice(0, count).map(viewEvent) : undefined;
      }),
    failure: () => until(() => errors[0]),
  };
}
