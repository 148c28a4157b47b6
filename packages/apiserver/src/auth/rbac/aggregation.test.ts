import { describe, expect, it } from 'vitest';
import { aggregateClusterRoles, effectiveRules, reconcileAggregatedRoles } from './aggregation.js';
import type { ClusterRole, PolicyRule } from './types.js';

const r = (verb: string, resource: string): PolicyRule => ({ verbs: [verb], apiGroups: [''], resources: [resource] });
const role = (name: string, labels: Record<string, string>, rules: PolicyRule[], aggregate?: ClusterRole['aggregationRule']): ClusterRole => ({
  metadata: { name, labels },
  rules,
  ...(aggregate ? { aggregationRule: aggregate } : {}),
});

describe('effectiveRules', () => {
  const monitoring = role('monitoring', {}, [r('stale', 'ignored')], {
    clusterRoleSelectors: [{ matchLabels: { 'agg/monitoring': 'true' } }, { matchExpressions: [{ key: 'agg/extra', operator: 'Exists' }] }],
  });
  const all = [
    monitoring,
    role('z-pods', { 'agg/monitoring': 'true' }, [r('get', 'pods'), r('list', 'pods')]),
    role('a-nodes', { 'agg/monitoring': 'true' }, [r('get', 'nodes'), r('get', 'pods')]),
    role('m-extra', { 'agg/extra': 'yes' }, [r('list', 'pods'), r('watch', 'events')]),
    role('unrelated', { 'agg/monitoring': 'false' }, [r('delete', 'pods')]),
  ];

  it('unions matching roles, selectors in order and roles by name, dropping repeats and stored rules', () => {
    expect(effectiveRules(monitoring, all)).toEqual([r('get', 'nodes'), r('get', 'pods'), r('list', 'pods'), r('watch', 'events')]);
  });

  it('leaves roles without an aggregationRule alone, and an empty rule aggregates nothing', () => {
    expect(effectiveRules(all[1], all)).toEqual([r('get', 'pods'), r('list', 'pods')]);
    expect(effectiveRules(role('empty', {}, [r('get', 'x')], {}), all)).toEqual([]);
  });

  it('nests aggregated roles, skips itself, and stops at cycles', () => {
    const top = role('top', { loop: 'true' }, [], { clusterRoleSelectors: [{ matchLabels: { tier: 'mid' } }] });
    const mid = role('mid', { tier: 'mid' }, [r('stale', 'mid')], { clusterRoleSelectors: [{ matchLabels: { tier: 'leaf' } }, { matchLabels: { loop: 'true' } }] });
    const leaf = role('leaf', { tier: 'leaf' }, [r('get', 'leaves')]);
    const self = role('self', { me: 'true' }, [r('get', 'self')], { clusterRoleSelectors: [{ matchLabels: { me: 'true' } }] });
    const roles = [top, mid, leaf, self];
    expect(effectiveRules(top, roles)).toEqual([r('get', 'leaves')]);
    expect(effectiveRules(mid, roles)).toEqual([r('get', 'leaves')]);
    expect(effectiveRules(self, roles)).toEqual([]);
    expect(aggregateClusterRoles(roles).map((x) => [x.metadata.name, x.rules])).toEqual([
      ['top', [r('get', 'leaves')]],
      ['mid', [r('get', 'leaves')]],
      ['leaf', [r('get', 'leaves')]],
      ['self', []],
    ]);
  });
});

describe('reconcileAggregatedRoles', () => {
  it('writes back only aggregated roles whose stored rules differ', async () => {
    const view = role('view', {}, [], { clusterRoleSelectors: [{ matchLabels: { v: 'true' } }] });
    const edit = role('edit', {}, [r('get', 'pods')], { clusterRoleSelectors: [{ matchLabels: { v: 'true' } }] });
    const source = role('pods', { v: 'true' }, [r('get', 'pods')]);
    const written: ClusterRole[] = [];
    const changed = await reconcileAggregatedRoles(async () => [view, edit, source], async (x) => void written.push(x));
    expect(changed).toEqual(['view']);
    expect(written).toEqual([{ ...view, rules: [r('get', 'pods')] }]);
  });
});
