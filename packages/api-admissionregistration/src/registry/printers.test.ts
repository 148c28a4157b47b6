import type { KubeObject } from '@kapi/apimachinery';
import { describe, expect, it } from 'vitest';
import { binding, policy, webhook, webhookConfiguration } from './fixtures.js';
import { bindingPrinter, paramRefCell, policyPrinter, webhookConfigurationPrinter } from './printers.js';

const NOW = Date.parse('2024-01-01T01:00:00Z');
const created = (o: KubeObject): KubeObject => ({ ...o, metadata: { ...(o.metadata as object), creationTimestamp: '2024-01-01T00:00:00Z' } });
const cells = (printer: { cells: Record<string, (o: KubeObject, now: number) => unknown> }, o: KubeObject) =>
  Object.fromEntries(Object.entries(printer.cells).map(([name, f]) => [name, f(created(o), NOW)]));

describe('admissionregistration table printers', () => {
  it('webhook configurations: WEBHOOKS is the count, AGE', () => {
    expect(cells(webhookConfigurationPrinter, webhookConfiguration('ValidatingWebhookConfiguration', [webhook('a.b.c'), webhook('d.e.f')]))).toEqual({ Webhooks: 2, Age: '60m' });
    expect(cells(webhookConfigurationPrinter, { apiVersion: 'x', kind: 'MutatingWebhookConfiguration', metadata: {} }).Webhooks).toBe(0);
  });

  it('policy: VALIDATIONS count, PARAMKIND `<apiVersion>/<kind>` or `<unset>`', () => {
    expect(cells(policyPrinter, policy())).toEqual({ Validations: 1, ParamKind: '<unset>', Age: '60m' });
    expect(cells(policyPrinter, policy({ paramKind: { apiVersion: 'v1', kind: 'ConfigMap' }, validations: [] })).ParamKind).toBe('v1/ConfigMap');
    expect(cells(policyPrinter, policy({ paramKind: {} })).ParamKind).toBe('/');
  });

  it('binding: POLICYNAME, PARAMREF by name, namespace, selector', () => {
    expect(cells(bindingPrinter, binding())).toEqual({ PolicyName: 'policy.example.com', ParamRef: '<unset>', Age: '60m' });
    expect(paramRefCell(binding({ paramRef: { name: 'p', namespace: 'ns' } }))).toBe('ns/p');
    expect(paramRefCell(binding({ paramRef: { name: 'p' } }))).toBe('*/p');
    expect(paramRefCell(binding({ paramRef: {} }))).toBe('<unset>');
    expect(paramRefCell(binding({ paramRef: { selector: {} } }))).toBe('&LabelSelector{MatchLabels:map[string]string{},MatchExpressions:[]LabelSelectorRequirement{},}');
    expect(
      paramRefCell(binding({ paramRef: { selector: { matchLabels: { z: '1', a: '2' }, matchExpressions: [{ key: 'k', operator: 'In', values: ['x', 'y'] }, { key: 'e', operator: 'Exists' }] } } })),
    ).toBe(
      '&LabelSelector{MatchLabels:map[string]string{a: 2,z: 1,},MatchExpressions:[]LabelSelectorRequirement{LabelSelectorRequirement{Key:k,Operator:In,Values:[x y],},LabelSelectorRequirement{Key:e,Operator:Exists,Values:[],},},}',
    );
  });
});
