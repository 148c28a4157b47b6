import type { ConvertContext } from './context.js';
import { convertDefinition, type ConvertedDefinition } from './definition.js';
import { filePathOf } from './names.js';

/**
 * Converts the roots and, transitively, every definition they reference (by `$ref` or as an embedded
 * message). Returns the converted schemas by file path.
 */
export function convertClosure(roots: readonly string[], ctx: ConvertContext): Map<string, ConvertedDefinition> {
  const byPath = new Map<string, ConvertedDefinition>();
  const done = new Set<string>();
  const queue = [...roots];
  while (queue.length) {
    const definition = queue.shift()!;
    if (done.has(definition)) continue;
    done.add(definition);
    const converted = convertDefinition(definition, ctx, (ref) => {
      if (!done.has(ref)) queue.push(ref);
    });
    const path = filePathOf(converted.location);
    const clash = byPath.get(path);
    if (clash) throw new Error(`${definition} and ${clash.definition} would both be written to ${path}`);
    byPath.set(path, converted);
  }
  return byPath;
}
