// metav1validation.ValidateConditions (k8s.io/apimachinery/pkg/apis/meta/v1/validation), for a policy's status.
import { isLabelKey, type FieldError } from '@kapi/apimachinery';
import { child, duplicate, index, invalid, notSupported, required, tooLong } from './errors.js';
import { byteLength, isSet, objects, text } from './values.js';

const STATUSES = ['True', 'False', 'Unknown'];
const MAX_REASON_LEN = 1024;
const MAX_MESSAGE_LEN = 32 * 1024;
const REASON_FMT = '[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?';
const REASON_ERR =
  "a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_'";
const REASON = new RegExp(`^${REASON_FMT}$`);
const REASON_EXAMPLES = ['my_name', 'MY_NAME', 'MyName', 'ReasonA,ReasonB', 'ReasonA:ReasonB'];
/** validation.RegexError's text (the double spaces before `or` are kube's). */
const REASON_MESSAGE = `${REASON_ERR} (e.g. ${REASON_EXAMPLES.map((e) => `'${e}', `).join(' or ')}regex used for validation is '${REASON_FMT}')`;

function validateCondition(c: Record<string, unknown>, field: string): FieldError[] {
  const errs: FieldError[] = [];
  const type = text(c.type);
  if (type.length === 0) errs.push(required(child(field, 'type'), 'is required'));
  else for (const msg of isLabelKey(type)) errs.push(invalid(child(field, 'type'), type, msg));
  const status = text(c.status);
  if (status.length === 0) errs.push(required(child(field, 'status')));
  else if (!STATUSES.includes(status)) errs.push(notSupported(child(field, 'status'), status, STATUSES));
  if (typeof c.observedGeneration === 'number' && c.observedGeneration < 0) {
    errs.push(invalid(child(field, 'observedGeneration'), c.observedGeneration, 'must be greater than or equal to zero'));
  }
  if (!isSet(c.lastTransitionTime) || c.lastTransitionTime === '') errs.push(required(child(field, 'lastTransitionTime')));
  const reason = text(c.reason);
  if (reason.length === 0) errs.push(required(child(field, 'reason')));
  else {
    if (!REASON.test(reason)) errs.push(invalid(child(field, 'reason'), reason, REASON_MESSAGE));
    if (byteLength(reason) > MAX_REASON_LEN) errs.push(tooLong(child(field, 'reason'), MAX_REASON_LEN));
  }
  if (byteLength(text(c.message)) > MAX_MESSAGE_LEN) errs.push(tooLong(child(field, 'message'), MAX_MESSAGE_LEN));
  return errs;
}

/** ValidateConditions: a type only once (Duplicate at the item), each condition well formed. */
export function validateConditions(conditions: unknown, field: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  objects(conditions).forEach((c, i) => {
    const type = text(c.type);
    if (seen.has(type)) errs.push(duplicate(index(field, i), type));
    else seen.add(type);
    errs.push(...validateCondition(c, index(field, i)));
  });
  return errs;
}
