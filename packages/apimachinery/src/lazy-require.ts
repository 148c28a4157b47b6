import { createRequire } from 'node:module';

/**
 * A package loaded on the first call of the returned function, resolved from `from` (the caller's
 * `import.meta.url`) with Node's `require`. For large CommonJS libraries that only some requests or flags use
 * (YAML, Protobuf, ajv): each is tens of files, whose loading at start cost a server tens of
 * milliseconds apiece. Types come from `import type`; the module is the one `import` would give.
 */
export function requireLazily<T>(from: string, id: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= createRequire(from)(id) as T);
}
