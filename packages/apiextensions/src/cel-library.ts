import { requireLazily } from '@kapi/apimachinery';

/**
 * @kapi/cel, loaded on first use: it holds a whole CEL implementation (about 700 KB of modules, and registries built
 * when it loads, some 90 ms of a start), which a server needs only once a CEL expression is written or evaluated.
 * Types come from `import type`.
 */
export const celLibrary = requireLazily<typeof import('@kapi/cel')>(import.meta.url, '@kapi/cel');
