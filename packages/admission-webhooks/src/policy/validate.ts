// One compiled policy evaluated for one request and one param (kube's validating/validator.go Validate): the
// matchConditions, then the validations with their messages, then the audit annotations, each group in its own
// activation with kube's budgets, the failure policy applied to errors.
import type { AdmissionEvaluation, AdmissionInput } from '@kapi/cel';
import { celLibrary } from '../cel-library.js';
import type { CompiledPolicy } from './compile.js';

/** kube's PolicyDecision: what one validation decided. */
export interface PolicyDecision {
  action: 'admit' | 'deny';
  evaluation: 'admit' | 'deny' | 'error';
  message: string;
  /** The validation's reason (denials only; kube's default Invalid applies when absent). */
  reason?: string;
}

/** kube's PolicyAuditAnnotation: what one auditAnnotation produced. */
export interface AuditAnnotationResult {
  key: string;
  action: 'publish' | 'error' | 'exclude';
  value?: string;
  error?: string;
}

/** The decisions and audit annotations of one evaluation of a policy. */
export interface ValidateResult {
  decisions: PolicyDecision[];
  auditAnnotations: AuditAnnotationResult[];
}

/** kube's cap on an evaluated messageExpression (celconfig.MaxEvaluatedMessageExpressionSizeBytes). */
const MAX_MESSAGE_BYTES = 5 * 1024;

/** Go's utilerrors.NewAggregate(...).Error(): one error as itself, several deduplicated in brackets. */
function aggregate(errors: string[]): string {
  const unique = [...new Set(errors)];
  return unique.length === 1 ? unique[0] : `[${unique.join(', ')}]`;
}

/**
 * kube's matchconditions matcher for a policy: all conditions are evaluated (budget 2,500,000); any false one is no
 * match; otherwise errors are an error under Fail and no match under Ignore.
 */
async function matchConditions(compiled: CompiledPolicy, input: AdmissionInput): Promise<{ matches: boolean; error?: string }> {
  if (compiled.matchConditions.length === 0) return { matches: true };
  const activation = new (celLibrary().AdmissionActivation)(compiled.env, input, { budget: celLibrary().MATCH_CONDITIONS_COST_BUDGET });
  const results: AdmissionEvaluation[] = [];
  for (const c of compiled.matchConditions) {
    const r = await activation.evaluate(c.expression);
    if (r.outOfBudget) return compiled.failurePolicy === 'Fail' ? { matches: false, error: r.error } : { matches: false };
    results.push(r);
  }
  if (results.some((r) => r.error === undefined && r.value === false)) return { matches: false };
  const errors = results.filter((r) => r.error !== undefined).map((r) => r.error!);
  if (errors.length > 0) return compiled.failurePolicy === 'Fail' ? { matches: false, error: aggregate(errors) } : { matches: false };
  return { matches: true };
}

/** kube's message of a failed validation: the messageExpression's result, else `message`, else the expression. */
function failureMessage(value: unknown, message: string | undefined, expression: string): string {
  let m = '';
  if (typeof value === 'string') {
    m = value.trim();
    if (Buffer.byteLength(m) > MAX_MESSAGE_BYTES || m.includes('\n')) m = '';
  }
  if (m === '' && message) m = message.trim();
  if (m === '') m = `failed expression: ${expression.trim()}`;
  return m;
}

/**
 * Evaluates a policy for one request. `input` binds the validations' variables (object in the matched version,
 * params, namespaceObject, request at the matched resource, authorizer); `matchInput` the matchConditions' (kube
 * binds no namespaceObject there and the request's own resource).
 */
export async function validatePolicy(compiled: CompiledPolicy, input: AdmissionInput, matchInput: AdmissionInput): Promise<ValidateResult> {
  const failAction = compiled.failurePolicy === 'Ignore' ? 'admit' : 'deny';
  const failed = (message: string): ValidateResult => ({ decisions: [{ action: failAction, evaluation: 'error', message }], auditAnnotations: [] });

  const match = await matchConditions(compiled, matchInput);
  if (match.error !== undefined) return failed(match.error);
  if (!match.matches) return { decisions: [], auditAnnotations: [] };

  const validations = new (celLibrary().AdmissionActivation)(compiled.env, input);
  const results: AdmissionEvaluation[] = [];
  for (const v of compiled.validations) {
    const r = await validations.evaluate(v.expression);
    if (r.outOfBudget) return failed(r.error);
    results.push(r);
  }
  // kube evaluates every messageExpression, with what the validations left of the budget and no authorizer.
  const messages = new (celLibrary().AdmissionActivation)(compiled.env, { ...input, authorizer: undefined }, { budget: validations.remainingBudget });
  const messageResults: (AdmissionEvaluation | undefined)[] = [];
  let messagesOutOfBudget = false;
  for (const v of compiled.validations) {
    if (!v.messageExpression || messagesOutOfBudget) {
      messageResults.push(undefined);
      continue;
    }
    const r = await messages.evaluate(v.messageExpression);
    if (r.outOfBudget) messagesOutOfBudget = true;
    messageResults.push(r);
  }
  const decisions = compiled.validations.map((v, i): PolicyDecision => {
    const r = results[i];
    if (r.error !== undefined) return { action: failAction, evaluation: 'error', message: r.error };
    if (messagesOutOfBudget) return { action: failAction, evaluation: 'error', message: `failed messageExpression: ${celLibrary().OUT_OF_BUDGET_MESSAGE}` };
    if (r.value === true) return { action: 'admit', evaluation: 'admit', message: '' };
    const m = messageResults[i];
    return {
      action: 'deny',
      evaluation: 'deny',
      reason: v.validation.reason ?? 'Invalid',
      message: failureMessage(m && m.error === undefined ? m.value : undefined, v.validation.message, v.validation.expression),
    };
  });

  // Audit annotations: a fresh budget, no authorizer bound.
  const audit = new (celLibrary().AdmissionActivation)(compiled.env, { ...input, authorizer: undefined });
  const auditAnnotations: AuditAnnotationResult[] = [];
  for (const a of compiled.auditAnnotations) {
    const r = await audit.evaluate(a.valueExpression);
    if (r.outOfBudget) return failed(r.error);
    if (r.error !== undefined) auditAnnotations.push({ key: a.key, action: compiled.failurePolicy === 'Ignore' ? 'exclude' : 'error', error: r.error });
    else if (typeof r.value === 'string') {
      const value = r.value.trim();
      auditAnnotations.push(value === '' ? { key: a.key, action: 'exclude' } : { key: a.key, action: 'publish', value });
    } else if (r.value === null) auditAnnotations.push({ key: a.key, action: 'exclude' });
    else {
      auditAnnotations.push({
        key: a.key,
        action: 'error',
        error: `valueExpression '${a.valueExpression.expression}' resulted in unsupported return type: ${r.type}. Return type must be either string or null.`,
      });
    }
  }
  return { decisions, auditAnnotations };
}
