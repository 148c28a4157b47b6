// Test helpers: fixtures, kube's v1 defaulting and PrepareForCreate, and a small valid CRD to break one rule at a time.
// Not exported from the package.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import type { CRD, JSONSchema } from './types.js';

/** packages/apiextensions/test/fixtures. */
export const FIXTURES = join(import.meta.dirname, '..', '..', 'test', 'fixtures');

/** The CRD YAML files of a fixture folder. */
export const fixtureFiles = (folder: string): string[] =>
  readdirSync(join(FIXTURES, folder))
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => join(FIXTURES, folder, f));

/** One CRD from a YAML file. */
export const loadCRD = (file: string): CRD => parse(readFileSync(file, 'utf8')) as CRD;

/**
 * What kube does to a v1 CRD before validating a create: SetDefaults_CustomResourceDefinition (singular, listKind,
 * conversion None, service port 443) and PrepareForCreate (status reset to the storage version as storedVersions).
 */
export function prepareForCreate(crd: CRD): CRD {
  const out = structuredClone(crd) as any;
  const names = out.spec.names;
  if (!names.singular) names.singular = String(names.kind ?? '').toLowerCase();
  if (!names.listKind && names.kind) names.listKind = `${names.kind}List`;
  out.spec.conversion ??= { strategy: 'None' };
  const service = out.spec.conversion.webhook?.clientConfig?.service;
  if (service && service.port === undefined) service.port = 443;
  const storage = (out.spec.versions ?? []).find((v: any) => v.storage);
  out.status = { storedVersions: storage ? [storage.name] : [] };
  return out as CRD;
}

/** A minimal valid CRD: widgets.example.com, one version v1 with a structural schema, prepared for create. */
export function widgetCRD(schema?: JSONSchema): any {
  return prepareForCreate({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
      scope: 'Namespaced',
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: schema ?? {
              type: 'object',
              properties: {
                spec: { type: 'object', properties: { replicas: { type: 'integer' }, color: { type: 'string' } } },
                status: { type: 'object', properties: { replicas: { type: 'integer' } } },
              },
            },
          },
        },
      ],
    },
  } as any);
}

/** kube's text of each error (`<field>: <body>`), as tests compare them. */
export { formatFieldError as errorText } from '@kapi/apimachinery';
