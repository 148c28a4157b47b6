// kube's table printers of admissionregistration kinds (pkg/printers/internalversion/printers.go): the cells beyond
// NAME, by the generated printer columns' names.
import { age, type TablePrinter } from '@kapi/apimachinery';
import { labelSelectorString } from './label-selector.js';
import { isObj, list, obj, text } from './values.js';

/** printValidatingWebhook / printMutatingWebhook: WEBHOOKS is the number of webhooks. */
export const webhookConfigurationPrinter: TablePrinter = {
  cells: { Webhooks: (o) => list(o.webhooks).length, Age: age },
};

/** printValidatingAdmissionPolicy: VALIDATIONS counts them; PARAMKIND is `<apiVersion>/<kind>`, `<unset>` without one. */
export const policyPrinter: TablePrinter = {
  cells: {
    Validations: (o) => list(obj(o.spec).validations).length,
    ParamKind: (o) => {
      const pk = obj(o.spec).paramKind;
      return isObj(pk) ? `${text(pk.apiVersion)}/${text(pk.kind)}` : '<unset>';
    },
    Age: age,
  },
};

/**
 * printValidatingAdmissionPolicyBinding's PARAMREF: `<namespace>/<name>`, `*\/<name>` without a namespace (the printer
 * cannot tell a cluster-scoped param), the selector's Go String() without a name, `<unset>` without a paramRef.
 */
export function paramRefCell(binding: Record<string, unknown>): string {
  const pr = obj(binding.spec).paramRef;
  if (!isObj(pr)) return '<unset>';
  const name = text(pr.name);
  if (name.length > 0) return text(pr.namespace) !== '' ? `${text(pr.namespace)}/${name}` : `*/${name}`;
  if (isObj(pr.selector)) return labelSelectorString(pr.selector);
  return '<unset>';
}

export const bindingPrinter: TablePrinter = {
  cells: { PolicyName: (o) => text(obj(o.spec).policyName), ParamRef: paramRefCell, Age: age },
};
