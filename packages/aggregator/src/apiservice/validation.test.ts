import { describe, expect, it } from 'vitest';
import type { APIService } from './types.js';
import { validateAPIService, validateAPIServiceStatus } from './validation.js';
import { apiServicePrinter } from './printer.js';

const apiService = (name: string, spec: APIService['spec']): APIService => ({ apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService', metadata: { name }, spec });
const fields = (errs: { field: string }[]) => errs.map((e) => e.field);

describe('validateAPIService', () => {
  it('accepts a Local APIService and a service-backed one', () => {
    expect(validateAPIService(apiService('v1.apps', { group: 'apps', version: 'v1', groupPriorityMinimum: 17800, versionPriority: 15 }))).toEqual([]);
    expect(validateAPIService(apiService('v1.', { group: '', version: 'v1', groupPriorityMinimum: 18000, versionPriority: 1 }))).toEqual([]);
    const remote = apiService('v1alpha1.wardle.example.com', {
      group: 'wardle.example.com',
      version: 'v1alpha1',
      service: { namespace: 'wardle', name: 'api', port: 443 },
      insecureSkipTLSVerify: true,
      groupPriorityMinimum: 1000,
      versionPriority: 15,
    });
    expect(validateAPIService(remote)).toEqual([]);
  });

  it('names must be version.group; an empty group is only the legacy v1', () => {
    const errs = validateAPIService(apiService('v2.', { group: '', version: 'v2', groupPriorityMinimum: 1, versionPriority: 1 }));
    expect(fields(errs)).toEqual(['spec.group']);
    const named = validateAPIService(apiService('wrong', { group: 'apps', version: 'v1', groupPriorityMinimum: 1, versionPriority: 1 }));
    expect(named[0]).toMatchObject({ field: 'metadata.name', message: 'must be `spec.version+"."+spec.group`: "v1.apps"' });
  });

  it('bounds priorities and refuses TLS settings kube refuses', () => {
    const errs = validateAPIService(
      apiService('V1.Bad_Group', { group: 'Bad_Group', version: 'V1', groupPriorityMinimum: 20001, versionPriority: 0, caBundle: 'AAAA', insecureSkipTLSVerify: true, service: { port: 0 } }),
    );
    expect(fields(errs)).toEqual([
      'spec.group',
      'spec.version',
      'spec.groupPriorityMinimum',
      'spec.versionPriority',
      'spec.service.namespace',
      'spec.service.name',
      'spec.service.port',
      'spec.insecureSkipTLSVerify',
    ]);
    const local = validateAPIService(apiService('v1.a.b', { group: 'a.b', version: 'v1', groupPriorityMinimum: 1, versionPriority: 1, caBundle: 'AAAA', insecureSkipTLSVerify: true }));
    expect(local.map((e) => [e.field, e.badValue])).toEqual([
      ['spec.caBundle', '3 bytes'],
      ['spec.insecureSkipTLSVerify', true],
    ]);
  });

  it('status conditions are True, False or Unknown', () => {
    const obj = { ...apiService('v1.apps', { group: 'apps', version: 'v1' }), status: { conditions: [{ type: 'Available', status: 'Maybe' as 'True' }] } };
    expect(validateAPIServiceStatus(obj)).toMatchObject([{ field: 'status.conditions[0].status', type: 'FieldValueNotSupported' }]);
  });
});

describe('the APIService printer', () => {
  it('shows the service as namespace/name or Local, and False with its reason', () => {
    const remote = {
      ...apiService('v1alpha1.wardle.example.com', { service: { namespace: 'wardle', name: 'api' } }),
      status: { conditions: [{ type: 'Available', status: 'False' as const, reason: 'MissingEndpoints' }] },
    };
    expect(apiServicePrinter.cells.Service(remote, 0)).toBe('wardle/api');
    expect(apiServicePrinter.cells.Available(remote, 0)).toBe('False (MissingEndpoints)');
    expect(apiServicePrinter.cells.Service(apiService("v1.apps", {}), 0)).toBe('Local');
    expect(apiServicePrinter.cells.Available(apiService("v1.apps", {}), 0)).toBe('Unknown');
  });
});
