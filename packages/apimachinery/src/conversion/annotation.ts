import { isObj, type Obj } from '../printing/values.js';
import type { KubeObject } from '../meta/object.js';
import type { Preserved } from './plan.js';

/**
 * The annotation holding, as JSON, the fields of `version` that the version an object was converted to cannot
 * hold (a partial object with the same nesting; list elements by index). See schemas/README.md.
 */
export const conversionAnnotation = (version: string): string => `conversion.kapi.dev/${version}`;

/** Writes `preserved` into the annotation of `version` on `obj` (mutated), or removes a stale one. */
export function writePreserved(obj: KubeObject, version: string, preserved: Preserved | undefined): void {
  const key = conversionAnnotation(version);
  if (!preserved) {
    if (obj.metadata?.annotations && key in obj.metadata.annotations) takeAnnotation(obj, key);
    return;
  }
  obj.metadata ??= {};
  obj.metadata.annotations = { ...obj.metadata.annotations, [key]: JSON.stringify(preserved) };
}

/**
 * Removes the annotation of `version` from `obj` (mutated) and returns what it held; a value that is not a JSON
 * object is dropped and ignored (a client may write any annotation).
 */
export function takePreserved(obj: KubeObject, version: string): Preserved | undefined {
  const text = takeAnnotation(obj, conversionAnnotation(version));
  if (text === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return isObj(parsed) && depthOf(parsed) <= MAX_DEPTH ? (parsed as Obj) : undefined;
  } catch {
    return undefined;
  }
}

/** As deep as a request body may be (the decoder's limit): deeper annotations are ignored, not followed. */
const MAX_DEPTH = 256;

/** How deeply a JSON value nests, counted without recursion (a hostile annotation may nest thousands deep). */
function depthOf(value: unknown): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    deepest = Math.max(deepest, depth);
    if (deepest > MAX_DEPTH) return deepest;
    for (const child of Object.values(v)) stack.push([child, depth + 1]);
  }
  return deepest;
}

function takeAnnotation(obj: KubeObject, key: string): string | undefined {
  const annotations = obj.metadata?.annotations;
  if (!annotations || !(key in annotations)) return undefined;
  const { [key]: value, ...rest } = annotations;
  // An emptied map goes (kube's JSON omits empty maps), so a round trip gives back an object without annotations.
  if (Object.keys(rest).length) obj.metadata!.annotations = rest;
  else delete obj.metadata!.annotations;
  return value;
}
