import { describe, expect, it } from 'vitest';
import { compactRules, compactString, covers } from './covers.js';

describe('covers (kube\'s rbac validation.Covers)', () => {
  it('breaks the wanted rules down and reports what no owned rule covers', () => {
    const owner = [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }];
    expect(covers(owner, [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }])).toEqual({ covered: true, missing: [] });
    expect(covers(owner, [{ apiGroups: ['', 'apps'], resources: ['pods'], verbs: ['get', 'delete'] }]).missing).toEqual([
      { apiGroups: [''], resources: ['pods'], verbs: ['delete'] },
      { apiGroups: ['apps'], resources: ['pods'], verbs: ['get'] },
      { apiGroups: ['apps'], resources: ['pods'], verbs: ['delete'] },
    ]);
  });

  it('knows wildcards: * verbs, groups and resources, */subresource, and URL prefixes', () => {
    expect(covers([{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }], [{ apiGroups: ['x'], resources: ['y/z'], verbs: ['v'] }]).covered).toBe(true);
    expect(covers([{ apiGroups: ['apps'], resources: ['*/scale'], verbs: ['update'] }], [{ apiGroups: ['apps'], resources: ['deployments/scale'], verbs: ['update'] }]).covered).toBe(true);
    expect(covers([{ apiGroups: ['apps'], resources: ['*/scale'], verbs: ['update'] }], [{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['update'] }]).covered).toBe(false);
    expect(covers([{ nonResourceURLs: ['/healthz/*'], verbs: ['get'] }], [{ nonResourceURLs: ['/healthz/etcd'], verbs: ['get'] }]).covered).toBe(true);
    expect(covers([{ nonResourceURLs: ['/healthz/*'], verbs: ['get'] }], [{ nonResourceURLs: ['/metrics'], verbs: ['get'] }]).covered).toBe(false);
  });

  it('resource names: an unnamed rule covers any name, a named one only its names, and never an unnamed request', () => {
    const any = [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }];
    const one = [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'], resourceNames: ['a'] }];
    expect(covers(any, one).covered).toBe(true);
    expect(covers(one, [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'], resourceNames: ['a'] }]).covered).toBe(true);
    expect(covers(one, [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'], resourceNames: ['b'] }]).covered).toBe(false);
    expect(covers(one, any).covered).toBe(false);
  });
});

describe('compact strings of missing rules (kube\'s escalation messages)', () => {
  it('merges verbs per group and resource, and writes Go\'s %q of each list', () => {
    const missing = [
      { apiGroups: [''], resources: ['secrets'], verbs: ['get'] },
      { apiGroups: [''], resources: ['secrets'], verbs: ['list'] },
      { nonResourceURLs: ['*'], verbs: ['*'] },
      { apiGroups: ['apps'], resources: ['deployments'], verbs: ['delete'], resourceNames: ['web'] },
    ];
    expect(compactRules(missing).map(compactString)).toEqual([
      '{APIGroups:[""], Resources:["secrets"], Verbs:["get" "list"]}',
      '{NonResourceURLs:["*"], Verbs:["*"]}',
      '{APIGroups:["apps"], Resources:["deployments"], ResourceNames:["web"], Verbs:["delete"]}',
    ]);
  });
});
