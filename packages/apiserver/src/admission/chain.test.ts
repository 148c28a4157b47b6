import { describe, expect, it } from 'vitest';
import type { ResourceInfo } from '@kapi/apimachinery';
import { createAdmissionChain } from './chain.js';
import type { AdmissionAttributes, AdmissionPlugin } from './types.js';

const attrs = (operation: AdmissionAttributes['operation']): AdmissionAttributes => ({
  operation,
  resource: { group: '', version: 'v1', kind: 'ConfigMap', plural: 'configmaps' } as ResourceInfo,
  subresource: '',
  namespace: 'default',
  name: 'a',
  object: { metadata: { name: 'a' } },
  options: {},
  warn: () => {},
  annotate: () => {},
  user: { username: 'u', groups: [] },
  dryRun: false,
});

describe('admission chain', () => {
  it('runs every mutation in order before any validation, skipping plugins for other operations', async () => {
    const seen: string[] = [];
    const plugin = (name: string, operations?: AdmissionPlugin['operations']): AdmissionPlugin => ({
      name,
      operations,
      mutate: (a) => {
        seen.push(`mutate ${name}`);
        (a.object!.metadata as Record<string, unknown>)[name] = true;
      },
      validate: () => void seen.push(`validate ${name}`),
    });
    const chain = createAdmissionChain([plugin('a'), plugin('b', ['DELETE']), plugin('c', ['CREATE'])]);
    const a = attrs('CREATE');
    await chain.mutate(a);
    await chain.validate(a);
    expect(seen).toEqual(['mutate a', 'mutate c', 'validate a', 'validate c']);
    expect(a.object!.metadata).toEqual({ name: 'a', a: true, c: true });
  });

  it('does not call a plugin whose matches says it has nothing to do, and still stops at a plugin that throws at once', async () => {
    const seen: string[] = [];
    const chain = createAdmissionChain([
      { name: 'pods only', matches: (a) => a.resource.kind === 'Pod', mutate: () => void seen.push('pods only'), validate: () => void seen.push('pods only') },
      { name: 'any', matches: () => true, mutate: () => void seen.push('any') },
      {
        name: 'sync deny',
        validate: () => {
          throw new Error('denied at once');
        },
      },
      { name: 'after', validate: () => void seen.push('after') },
    ]);
    await chain.mutate(attrs('CREATE'));
    await expect(chain.validate(attrs('CREATE'))).rejects.toThrow('denied at once');
    expect(seen).toEqual(['any']);
  });

  it('stops at the first rejection', async () => {
    const seen: string[] = [];
    const chain = createAdmissionChain([
      { name: 'deny', validate: () => Promise.reject(new Error('denied')) },
      { name: 'after', validate: () => void seen.push('after') },
    ]);
    await expect(chain.validate(attrs('UPDATE'))).rejects.toThrow('denied');
    expect(seen).toEqual([]);
  });
});

describe('admission and dry run', () => {
  it('fails a dry-run request that would reach a plugin with side effects, and runs side-effect-free ones', async () => {
    const ran: string[] = [];
    const chain = createAdmissionChain([
      { name: 'pure', sideEffects: 'NoneOnDryRun', mutate: () => void ran.push('pure') },
      { name: 'webhook', sideEffects: 'Some', operations: ['CREATE'], validate: () => void ran.push('webhook') },
    ]);
    const dry = { ...attrs('CREATE'), dryRun: true };
    await chain.mutate(dry);
    await expect(chain.validate(dry)).rejects.toThrow('admission plugin "webhook" has side effects and does not support dry run');
    await chain.validate({ ...attrs('UPDATE'), dryRun: true });
    await chain.validate(attrs('CREATE'));
    expect(ran).toEqual(['pure', 'webhook']);
  });
});
