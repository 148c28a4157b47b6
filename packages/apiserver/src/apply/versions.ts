// Managers of other versions (merge.Updater with its Converter): a manager's fields are paths in the apiVersion its
// entry was written in, so a write is compared for it in that version — the old and new objects converted to it,
// with that version's schema and reset fields. A manager whose version is no longer served is dropped, as SMD drops
// it on IsMissingVersionError.
//
// The engine stays synchronous when nothing needs converting: the steps that may need a conversion are generators
// yielding ConvertRequests, which `drive` answers synchronously until a conversion answers with a promise.
import { resolveSchema, type Schema, type SchemaInput } from './schema.js';
import { toResetSet, type ResetFieldsInput } from './reset-fields.js';
import type { FieldSet } from './field-set.js';
import { isPromise } from '../maybe.js';

/** What the engine needs of one served version of the kind. */
export interface VersionSchema {
  meta: SchemaInput;
  resetFields?: ResetFieldsInput;
}

/** How the engine reaches the other versions of the kind written (kube's merge.Converter). */
export interface VersionConverter {
  /** The schema of a version (`group/version`), or undefined when the kind is not served in it (its managers are dropped). */
  version(apiVersion: string): VersionSchema | undefined;
  /**
   * Objects of version `from` in version `to`, in order (one call for several objects); may answer asynchronously.
   * Must not mutate them. Throwing {@link MissingVersionError} drops the managers of `to`; other errors fail the write.
   * Absent for a kind whose versions do not convert: managers of a version it is served in are compared in the
   * request's version (as they always were), and only those of versions it is not served in are dropped.
   */
  convert?(objects: readonly unknown[], from: string, to: string): unknown[] | Promise<unknown[]>;
}

/** A conversion's way to say that it does not know a version (kube's runtime.IsNotRegisteredError): its managers are dropped. */
export class MissingVersionError extends Error {
  constructor(readonly apiVersion: string) {
    super(`no kind is registered for the version ${apiVersion}`);
    this.name = 'MissingVersionError';
  }
}

/** What a step asks `drive` to convert. */
export interface ConvertRequest {
  objects: readonly unknown[];
  from: string;
  to: string;
}

/** A step of the engine that may need conversions: yields requests, receives the converted objects. */
export type Steps<T> = Generator<ConvertRequest, T, unknown[]>;

/** One version's view: its schema and reset fields, resolved once per write. */
export interface VersionView {
  schema: Schema;
  reset: FieldSet;
}

/**
 * The versions of one write: the request's, and (with a converter) how to reach the others. Conversions are cached
 * per object and version for the write, so that the old object is converted once per version however many
 * managers of that version there are.
 */
export class Versions {
  // Made on first use: a write of a kind served in one version allocates none of them.
  private views?: Map<string, VersionView | undefined>;
  private cache?: Map<unknown, Map<string, unknown>>;
  /** Objects that are the same in every version (the zero object a create starts from). */
  private everywhere?: Set<unknown>;

  constructor(
    readonly request: string,
    private readonly requestView: VersionView,
    readonly converter?: VersionConverter,
  ) {}

  /**
   * The version a manager's fields are compared in: its own, or (without a converter: a kind served in one
   * version) the request's, as the engine has always compared them.
   */
  of(apiVersion: string): string {
    return this.converter?.convert ? apiVersion : this.request;
  }

  /** The view of a version; undefined when it is not served. */
  view(apiVersion: string): VersionView | undefined {
    if (apiVersion === this.request) return this.requestView;
    if (this.views?.has(apiVersion)) return this.views.get(apiVersion);
    const v = this.converter?.version(apiVersion);
    const view = v && { schema: resolveSchema(v.meta), reset: toResetSet(v.resetFields) };
    (this.views ??= new Map()).set(apiVersion, view);
    return view;
  }

  /** Marks an object as the same in every version (not converted). */
  same(obj: unknown): void {
    (this.everywhere ??= new Set()).add(obj);
  }

  /**
   * `objects` (in `from`) in `to`, converted once each per write; undefined when `to` is a missing version. Asks for
   * nothing when they are in `to` already.
   */
  *convert(objects: readonly unknown[], from: string, to: string): Steps<unknown[] | undefined> {
    if (from === to) return [...objects];
    const out: unknown[] = new Array(objects.length);
    const todo: number[] = [];
    objects.forEach((o, i) => {
      if (this.everywhere?.has(o)) out[i] = o;
      else if (this.cache?.get(o)?.has(to)) out[i] = this.cache.get(o)!.get(to);
      else todo.push(i);
    });
    if (todo.length) {
      const cache = (this.cache ??= new Map());
      let converted: unknown[];
      try {
        converted = yield { objects: todo.map((i) => objects[i]), from, to };
      } catch (err) {
        if (err instanceof MissingVersionError) return undefined;
        throw err;
      }
      todo.forEach((i, k) => {
        out[i] = converted[k];
        let byVersion = cache.get(objects[i]);
        if (!byVersion) cache.set(objects[i], (byVersion = new Map()));
        byVersion.set(to, converted[k]);
        // The way back is known too: converting the result to `from` gives the original.
        let back = cache.get(converted[k]);
        if (!back) cache.set(converted[k], (back = new Map()));
        back.set(from, objects[i]);
      });
    }
    return out;
  }
}

/**
 * Runs steps, answering their conversion requests with `converter`: synchronously as long as every conversion
 * answers synchronously (no conversion asked: no await at all), else as a promise.
 */
export function drive<T>(steps: Steps<T>, converter: VersionConverter | undefined): T | Promise<T> {
  let next = steps.next();
  while (!next.done) {
    const request = next.value;
    let answer: unknown[] | Promise<unknown[]>;
    try {
      if (!converter?.convert) throw new Error('a conversion was asked for without a converter');
      answer = converter.convert(request.objects, request.from, request.to);
    } catch (err) {
      next = steps.throw(err);
      continue;
    }
    if (isPromise(answer)) return finish(steps, answer, converter!);
    next = steps.next(answer);
  }
  return next.value;
}

async function finish<T>(steps: Steps<T>, pending: Promise<unknown[]>, converter: VersionConverter): Promise<T> {
  type Settled = { value: unknown[] } | { error: unknown };
  const settle = (p: Promise<unknown[]>): Promise<Settled> => p.then((value) => ({ value }), (error: unknown) => ({ error }));
  let settled = await settle(pending);
  for (;;) {
    // A conversion's error goes into the steps (a missing version is theirs to handle); their own errors go out.
    const next = 'error' in settled ? steps.throw(settled.error) : steps.next(settled.value);
    if (next.done) return next.value;
    const { objects, from, to } = next.value;
    settled = await settle(Promise.resolve().then(() => converter.convert!(objects, from, to)));
  }
}

/** Runs steps that must not need a conversion (no converter given): their result, synchronously. */
export function driveSync<T>(steps: Steps<T>): T {
  return drive(steps, undefined) as T;
}
