import type { TypeDefaulter } from '@kapi/apimachinery';

type Obj = Record<string, unknown>;

/**
 * kube's defaulting of apiextensions.k8s.io/v1 (SetDefaults_CustomResourceDefinitionSpec, SetDefaults_ServiceReference):
 * the singular name is the lowercased kind, the list kind `<Kind>List`, conversion `None`, a webhook service's
 * port 443. By field-tree type, for the server's defaulting of every write and every read from storage.
 */
export const crdDefaulters: Record<string, TypeDefaulter> = {
  'apiextensions.k8s.io/v1/CustomResourceDefinitionSpec': (spec) => {
    const names = spec.names as Obj | undefined;
    if (names && typeof names.kind === 'string') {
      if (!names.singular) names.singular = names.kind.toLowerCase();
      if (!names.listKind) names.listKind = `${names.kind}List`;
    }
    spec.conversion ??= { strategy: 'None' };
  },
  'apiextensions.k8s.io/v1/ServiceReference': (service) => {
    service.port ??= 443;
  },
};
