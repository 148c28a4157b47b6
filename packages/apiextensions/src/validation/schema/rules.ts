// The shape of x-kubernetes-validations rules, checked before the CEL compiler sees them (part of kube's
// ValidateCustomResourceDefinitionOpenAPISchema).
import type { FieldError } from '@kapi/apimachinery';
import { child, index, invalid, notSupported, required } from '../field.js';
import { has } from '../json.js';
import type { JSONSchema } from '../types.js';
import { validFieldPath } from './field-path.js';
import { newStructuralError } from './nodes.js';

const VALIDATION_REASONS = ['FieldValueDuplicate', 'FieldValueForbidden', 'FieldValueInvalid', 'FieldValueRequired'];
const NEWLINES = /[\n\r]+/;

/** Each rule of a node: a rule, a one-line message, a supported reason, a fieldPath naming a field of the node. */
export function validateRuleShapes(schema: JSONSchema, fldPath: string): FieldError[] {
  const errs: FieldError[] = [];
  (schema['x-kubernetes-validations'] ?? []).forEach((rule, i) => {
    const p = index(child(fldPath, 'x-kubernetes-validations'), i);
    const ruleText = (rule.rule ?? '').trim();
    const message = rule.message ?? '';
    const trimmedMsg = message.trim();
    if (ruleText.length === 0) errs.push(required(child(p, 'rule'), 'rule is not specified'));
    else if (message.length > 0 && trimmedMsg.length === 0) errs.push(invalid(child(p, 'message'), message, 'message must be non-empty if specified'));
    else if (NEWLINES.test(trimmedMsg)) errs.push(invalid(child(p, 'message'), message, 'message must not contain line breaks'));
    else if (NEWLINES.test(ruleText) && trimmedMsg.length === 0) {
      errs.push(required(child(p, 'message'), 'message must be specified if rule contains line breaks'));
    }
    if ((rule.messageExpression ?? '').length > 0 && rule.messageExpression!.trim().length === 0) {
      errs.push(required(child(p, 'messageExpression'), 'messageExpression must be non-empty if specified'));
    }
    if (has(rule.reason) && !VALIDATION_REASONS.includes(rule.reason)) {
      errs.push(notSupported(child(p, 'reason'), rule.reason, VALIDATION_REASONS));
    }
    const fieldPath = rule.fieldPath ?? '';
    if (fieldPath.length > 0 && fieldPath.trim().length === 0) {
      errs.push(invalid(child(p, 'fieldPath'), fieldPath, 'fieldPath must be non-empty if specified'));
    }
    if (NEWLINES.test(fieldPath)) errs.push(invalid(child(p, 'fieldPath'), fieldPath, 'fieldPath must not contain line breaks'));
    if (fieldPath.length > 0 && !pathValid(schema, fieldPath)) {
      errs.push(invalid(child(p, 'fieldPath'), fieldPath, 'fieldPath must be a valid path'));
    }
  });
  return errs;
}

// pathValid: a rule's fieldPath names a field of the node's structural schema (true when that cannot be built).
function pathValid(schema: JSONSchema, path: string): boolean {
  if (newStructuralError(schema)) return true;
  return typeof validFieldPath(path, schema, true) !== 'string';
}
