import { isStatusError } from '@kapi/apimachinery';
import { describe, expect, it } from 'vitest';
import { parseDeleteOptions } from './delete-options.js';

const json = (body: unknown) => new TextEncoder().encode(JSON.stringify(body));
const parse = (query: string, body?: unknown) => parseDeleteOptions(new URLSearchParams(query), 'json', body === undefined ? new Uint8Array() : json(body));
const invalid = (query: string, body?: unknown) => {
  try {
    parse(query, body);
  } catch (err) {
    if (isStatusError(err)) return [err.status.code, err.status.message];
    throw err;
  }
  return 'accepted';
};

describe('DeleteOptions from the body and the query', () => {
  it('reads both, the query winning for the fields it carries', () => {
    expect(parse('gracePeriodSeconds=5&propagationPolicy=Foreground', { preconditions: { uid: 'u' }, gracePeriodSeconds: 30 })).toEqual({
      preconditions: { uid: 'u' }, gracePeriodSeconds: 5, propagationPolicy: 'Foreground', dryRun: false, dryRunGiven: false,
    });
    expect(parse('', { kind: 'DeleteOptions', apiVersion: 'v1', dryRun: ['All'] })).toMatchObject({ dryRun: true, dryRunGiven: true });
    expect(parse('dryRun=All')).toMatchObject({ dryRun: false, dryRunGiven: true });
  });

  it('reads boolean query parameters as kube converts them: only false and 0 (any case) are false', () => {
    // The Python client sends booleans as `True`/`False`; kube's conversion takes anything but false/0 as true.
    expect(parse('orphanDependents=True')).toMatchObject({ orphanDependents: true });
    expect(parse('orphanDependents=1')).toMatchObject({ orphanDependents: true });
    expect(parse('orphanDependents=False')).toMatchObject({ orphanDependents: false });
    expect(parse('orphanDependents=0')).toMatchObject({ orphanDependents: false });
    expect(parse('ignoreStoreReadErrorWithClusterBreakingPotential=True')).toMatchObject({ ignoreStoreReadErrorWithClusterBreakingPotential: true });
    expect(parse('ignoreStoreReadErrorWithClusterBreakingPotential=false')).toMatchObject({ ignoreStoreReadErrorWithClusterBreakingPotential: false });
    expect(parse('')).not.toHaveProperty('orphanDependents');
  });

  it('refuses what kube\'s ValidateDeleteOptions refuses, with 422', () => {
    expect(invalid('propagationPolicy=Sometimes')).toEqual([
      422, 'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "Sometimes": supported values: "Foreground", "Background", "Orphan"',
    ]);
    expect(invalid('propagationPolicy=Orphan&orphanDependents=true')).toEqual([
      422, 'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Invalid value: "Orphan": orphanDependents and deletionPropagation cannot be both set',
    ]);
    expect(invalid('gracePeriodSeconds=1.5')).toEqual([422, 'DeleteOptions.meta.k8s.io "" is invalid: gracePeriodSeconds: Invalid value: 1.5: must be an integer']);
    expect(invalid('', { dryRun: ['Some'] })).toEqual([422, 'DeleteOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: "Some": supported values: "All"']);
  });

  it('refuses the same in the body, every problem as one cause of one 422', async () => {
    expect(invalid('', { propagationPolicy: 'Sometimes' })).toEqual([
      422, 'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "Sometimes": supported values: "Foreground", "Background", "Orphan"',
    ]);
    expect(invalid('', { propagationPolicy: 'Orphan', orphanDependents: false })).toEqual([
      422, 'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Invalid value: "Orphan": orphanDependents and deletionPropagation cannot be both set',
    ]);
    expect(invalid('', { gracePeriodSeconds: 2.5 })).toEqual([422, 'DeleteOptions.meta.k8s.io "" is invalid: gracePeriodSeconds: Invalid value: 2.5: must be an integer']);
    try {
      parse('propagationPolicy=Never&orphanDependents=true', { gracePeriodSeconds: 0.5, dryRun: ['Some'] });
      expect.unreachable();
    } catch (err) {
      if (!isStatusError(err)) throw err;
      expect(err.status).toMatchObject({ code: 422, reason: 'Invalid', details: { kind: 'DeleteOptions', group: 'meta.k8s.io' } });
      expect(err.status.details!.causes!.map((c) => c.field)).toEqual(['propagationPolicy', 'propagationPolicy', 'gracePeriodSeconds', 'dryRun']);
    }
  });

  it('reads a YAML body, and an empty body as no options', () => {
    const yaml = new TextEncoder().encode('kind: DeleteOptions\napiVersion: v1\npropagationPolicy: Background\npreconditions:\n  resourceVersion: "7"\n');
    expect(parseDeleteOptions(new URLSearchParams(), 'yaml', yaml)).toMatchObject({ propagationPolicy: 'Background', preconditions: { resourceVersion: '7' } });
    expect(parse('')).toEqual({ dryRun: false, dryRunGiven: false });
  });
});
