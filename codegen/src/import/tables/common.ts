/** Column specs shared by the kubectl tables of several kinds. */

export interface ColumnSpec {
  name: string;
  type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  jsonPath: string;
  description?: string;
  computed?: string;
  priority?: number;
  format?: string;
}

export interface KindTable {
  shortNames?: string[];
  nameValidation?: 'DNS1123Label' | 'DNS1035Label' | 'PathSegment';
  /** kube's strategy returns false from AllowCreateOnUpdate: a PUT of a missing object is 404. */
  allowCreateOnUpdate?: false;
  /** kube's strategy returns false from AllowUnconditionalUpdate: an update needs the object's resourceVersion. */
  allowUnconditionalUpdate?: false;
  categories?: string[];
  printerColumns?: ColumnSpec[];
  /** The kind is deprecated (kube's `+k8s:prerelease-lifecycle-gen:deprecated`): every request to it gets kube's warning. */
  deprecated?: { in?: string; removedIn?: string; replacement?: string };
}

export const AGE: ColumnSpec = { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' };

/** kubectl's Containers and Images columns of a pod template's spec at `specPath` (wide output: priority 1). */
export function containerColumns(specPath: string, priority = 1): ColumnSpec[] {
  const extra = priority ? { priority } : {};
  return [
    { name: 'Containers', type: 'string', jsonPath: `${specPath}.containers[*].name`, ...extra, description: 'Names of each container in the template.' },
    { name: 'Images', type: 'string', jsonPath: `${specPath}.containers[*].image`, ...extra, description: 'Images referenced by each container in the template.' },
  ];
}

export const CONTAINERS: ColumnSpec[] = [
  ...containerColumns('.spec.template.spec'),
  {
    name: 'Selector',
    type: 'string',
    jsonPath: '.spec.selector',
    priority: 1,
    computed: 'kubectl shows the selector in its string form (app=web); this column is the selector object.',
  },
];

export const BINDING_COLUMNS: ColumnSpec[] = [
  {
    name: 'Role',
    type: 'string',
    jsonPath: '.roleRef.name',
    description:
      'RoleRef can reference a Role in the current namespace or a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error.',
    computed: 'kubectl shows Kind/name of the role; this column is the name.',
  },
  AGE,
  {
    name: 'Users',
    type: 'string',
    jsonPath: '.subjects[?(@.kind=="User")].name',
    priority: 1,
    description: 'Users in this binding.',
  },
  {
    name: 'Groups',
    type: 'string',
    jsonPath: '.subjects[?(@.kind=="Group")].name',
    priority: 1,
    description: 'Groups in this binding.',
  },
  {
    name: 'ServiceAccounts',
    type: 'string',
    jsonPath: '.subjects[?(@.kind=="ServiceAccount")].name',
    priority: 1,
    description: 'ServiceAccounts in this binding.',
    computed: 'kubectl shows namespace:name; this column is the name.',
  },
];
