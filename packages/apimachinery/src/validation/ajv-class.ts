import type Ajv from 'ajv';
import { requireLazily } from '../lazy-require.js';

/** ajv's class (draft-07 JSON Schema). */
export type AjvClass = typeof Ajv.default;

const ajvModule = requireLazily<AjvClass & { default?: AjvClass }>(import.meta.url, 'ajv');

/**
 * ajv's class, loaded when a validator is first compiled: a process whose validators all come from the cache (or
 * that has validated nothing yet) does not load ajv.
 */
export function ajvClass(): AjvClass {
  const module = ajvModule();
  return module.default ?? module;
}
