// The compiled form of a schema's rules: one node per schema node that has rules at or under it.
import type { Program } from './compile.js';
import type { StructuralSchema, ValidationRule } from './schema.js';

/** One compiled `x-kubernetes-validations` entry. */
export interface CompiledRule {
  readonly rule: ValidationRule;
  /** The rule's program, unless it failed to compile (then `error`) or is empty. */
  readonly program?: Program;
  readonly error?: string;
  /** The messageExpression's program, when it compiled. */
  readonly message?: Program;
  /** The rule's `fieldPath` as a kube field path relative to the node (`spec.replicas`), when valid. */
  readonly fieldPath?: string;
}

/** A schema node with rules at or under it. */
export interface RuleNode {
  readonly schema: StructuralSchema;
  /** A resource root (the custom resource, or an embedded resource): apiVersion, kind, metadata.name are visible. */
  readonly root: boolean;
  readonly rules: CompiledRule[];
  readonly properties?: Map<string, RuleNode>;
  readonly additionalProperties?: RuleNode;
  readonly items?: RuleNode;
  readonly allOf?: RuleNode[];
}
