import { describe, expect, it } from 'vitest';
import { requestAttributes } from './attributes.js';
import { ALL_RULES, alwaysAllow, alwaysDeny, privilegedGroups } from './always-allow.js';
import type { AuthorizationAttributes, Authorizer, Decision } from './types.js';
import { unionAuthorizer } from './union.js';

const attributes = (groups: string[] = []): AuthorizationAttributes =>
  requestAttributes({ username: 'u', groups }, 'GET', '/x', new URLSearchParams());

function fixed(name: string, decision: Decision, calls: string[]): Authorizer {
  return {
    name,
    authorize: () => {
      calls.push(name);
      return decision;
    },
    rulesFor: () => ({ resourceRules: [{ verbs: [name] }], nonResourceRules: [], incomplete: name === 'b' }),
  };
}

describe('unionAuthorizer', () => {
  it('asks in order; the first allow or deny decides and later ones are not asked', async () => {
    const calls: string[] = [];
    const union = unionAuthorizer([
      fixed('a', { decision: 'no-opinion', reason: 'not me' }, calls),
      fixed('b', { decision: 'deny', reason: 'no' }, calls),
      fixed('c', { decision: 'allow' }, calls),
    ]);
    expect(await union.authorize(attributes())).toEqual({ decision: 'deny', reason: 'no' });
    expect(calls).toEqual(['a', 'b']);

    const allowFirst: string[] = [];
    const union2 = unionAuthorizer([fixed('c', { decision: 'allow' }, allowFirst), fixed('b', { decision: 'deny' }, allowFirst)]);
    expect((await union2.authorize(attributes())).decision).toBe('allow');
    expect(allowFirst).toEqual(['c']);
  });

  it('with no opinion anywhere, answers no opinion (not allowed) with every reason', async () => {
    const calls: string[] = [];
    const union = unionAuthorizer([fixed('a', { decision: 'no-opinion', reason: 'r1' }, calls), alwaysDeny()]);
    expect(await union.authorize(attributes())).toEqual({ decision: 'no-opinion', reason: 'r1\nEverything is forbidden.' });
    expect(await unionAuthorizer([]).authorize(attributes())).toEqual({ decision: 'no-opinion' });
  });

  it('an authorizer that throws has no opinion and its error is the evaluation error', async () => {
    const broken: Authorizer = { name: 'x', authorize: () => Promise.reject(new Error('boom')), rulesFor: () => Promise.reject(new Error('bad')) };
    expect(await unionAuthorizer([broken]).authorize(attributes())).toEqual({ decision: 'no-opinion', evaluationError: 'boom' });
    expect((await unionAuthorizer([broken, alwaysAllow()]).authorize(attributes())).decision).toBe('allow');
    expect(await unionAuthorizer([broken]).rulesFor({ username: 'u', groups: [] }, 'ns')).toEqual({
      resourceRules: [], nonResourceRules: [], incomplete: true, evaluationError: 'bad',
    });
  });

  it('concatenates every authorizer\'s rules', async () => {
    const calls: string[] = [];
    const union = unionAuthorizer([fixed('a', { decision: 'allow' }, calls), fixed('b', { decision: 'allow' }, calls)]);
    expect(await union.rulesFor({ username: 'u', groups: [] }, 'ns')).toEqual({ resourceRules: [{ verbs: ['a'] }, { verbs: ['b'] }], nonResourceRules: [], incomplete: true });
    expect(await unionAuthorizer([alwaysAllow()]).rulesFor({ username: 'u', groups: [] }, 'ns')).toEqual(ALL_RULES);
  });

  it('privileged groups allow their members before any mode', async () => {
    const union = unionAuthorizer([privilegedGroups('system:masters'), alwaysDeny()]);
    expect((await union.authorize(attributes(['system:masters']))).decision).toBe('allow');
    expect((await union.authorize(attributes(['dev']))).decision).toBe('no-opinion');
  });
});
