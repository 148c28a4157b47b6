import { fieldForbidden, fieldInvalid, fieldNotSupported, fieldRequired, isDNS1123Label, isDNS1123Subdomain, isObj, str, validateLabelSelector, type FieldError } from '@kapi/apimachinery';
import { compareQuantities } from './quantity.js';

// kube 1.33's ValidatePersistentVolumeClaimSpec (pkg/apis/core/validation), for claims and for the claim templates of
// ephemeral volumes. With the VolumeAttributesClass gate off (1.33's default), `volumeAttributesClassName` is checked
// only on an update of a claim that already had one, as kube does.

/** Relaxations kube keeps for an update of a claim whose stored spec already had them (ValidationOptionsForPersistentVolumeClaim). */
export interface ClaimSpecOptions {
  /** The stored claim named an API group in its data source (or ref): the group is not checked again. */
  allowInvalidAPIGroup?: boolean;
  /** The stored claim's selector had label values kube now refuses: they stay accepted. */
  allowInvalidLabelValueInSelector?: boolean;
  /** The stored claim had a volume attributes class: its name is checked (kube's EnableVolumeAttributesClass). */
  checkAttributesClass?: boolean;
}

const ACCESS_MODES = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'];
const VOLUME_MODES = ['Block', 'Filesystem'];

/** kube's validateDataSource and validateDataSourceRef (the ref also has a namespace). */
function dataSourceErrors(source: unknown, field: string, options: ClaimSpecOptions, ref: boolean): FieldError[] {
  if (!isObj(source)) return [];
  const errs: FieldError[] = [];
  if (!str(source.name)) errs.push(fieldRequired(`${field}.name`));
  if (!str(source.kind)) errs.push(fieldRequired(`${field}.kind`));
  const group = str(source.apiGroup);
  if (!group && str(source.kind) !== 'PersistentVolumeClaim') errs.push(fieldInvalid(field, str(source.kind), "must be 'PersistentVolumeClaim' when referencing the default apiGroup"));
  if (group && !options.allowInvalidAPIGroup) for (const msg of isDNS1123Subdomain(group)) errs.push(fieldInvalid(`${field}.apiGroup`, group, msg));
  const namespace = str(source.namespace);
  if (ref && namespace) for (const msg of isDNS1123Label(namespace)) errs.push(fieldInvalid(`${field}.namespace`, namespace, msg));
  return errs;
}

/**
 * kube's ValidatePersistentVolumeClaimSpec: at least one access mode, each supported and ReadWriteOncePod alone; a
 * positive storage request (reported at `resources[storage]`, as kube does); the class name a DNS subdomain; the
 * volume mode; the data source and data source ref, which must agree unless the ref names a namespace.
 */
export function claimSpecErrors(spec: unknown, field: string, options: ClaimSpecOptions = {}): FieldError[] {
  const s = isObj(spec) ? spec : {};
  const errs: FieldError[] = [];
  const modes = Array.isArray(s.accessModes) ? s.accessModes : [];
  if (!modes.length) errs.push(fieldRequired(`${field}.accessModes`, 'at least 1 access mode is required'));
  errs.push(...validateLabelSelector(s.selector, `${field}.selector`, { allowInvalidLabelValueInSelector: options.allowInvalidLabelValueInSelector }));
  let once = false;
  let other = false;
  for (const mode of modes) {
    if (!ACCESS_MODES.includes(mode as string)) errs.push(fieldNotSupported(`${field}.accessModes`, mode, ACCESS_MODES));
    else if (mode === 'ReadWriteOncePod') once = true;
    else other = true;
  }
  if (once && other) errs.push(fieldForbidden(`${field}.accessModes`, 'may not use ReadWriteOncePod with other access modes'));
  const requests = isObj(s.resources) && isObj(s.resources.requests) ? s.resources.requests : {};
  const storage = requests.storage;
  if (storage === undefined || storage === null) errs.push(fieldRequired(`${field}.resources[storage]`));
  else if (compareQuantities(storage, '0') <= 0) errs.push(fieldInvalid(`${field}.resources[storage]`, String(storage), 'must be greater than zero'));
  const className = str(s.storageClassName);
  if (className) for (const msg of isDNS1123Subdomain(className)) errs.push(fieldInvalid(`${field}.storageClassName`, className, msg));
  if (typeof s.volumeMode === 'string' && !VOLUME_MODES.includes(s.volumeMode)) errs.push(fieldNotSupported(`${field}.volumeMode`, s.volumeMode, VOLUME_MODES));
  errs.push(...dataSourceErrors(s.dataSource, `${field}.dataSource`, options, false));
  errs.push(...dataSourceErrors(s.dataSourceRef, `${field}.dataSourceRef`, options, true));
  const source = isObj(s.dataSource) ? s.dataSource : undefined;
  const ref = isObj(s.dataSourceRef) ? s.dataSourceRef : undefined;
  if (ref && str(ref.namespace)) {
    if (source) errs.push(fieldInvalid(field, `${field}.dataSource`, 'may not be specified when dataSourceRef.namespace is specified'));
  } else if (source && ref && (source.apiGroup !== ref.apiGroup || str(source.kind) !== str(ref.kind) || str(source.name) !== str(ref.name))) {
    errs.push(fieldInvalid(field, `${field}.dataSource`, 'must match dataSourceRef'));
  }
  const attributesClass = str(s.volumeAttributesClassName);
  if (attributesClass && options.checkAttributesClass) {
    for (const msg of isDNS1123Subdomain(attributesClass)) errs.push(fieldInvalid(`${field}.volumeAttributesClassName`, attributesClass, msg));
  }
  return errs;
}

/** kube's ValidationOptionsForPersistentVolumeClaim for an update: what the stored claim already had stays allowed. */
export function claimSpecOptions(old: unknown): ClaimSpecOptions {
  const spec = isObj(old) && isObj(old.spec) ? old.spec : {};
  const grouped = (source: unknown) => isObj(source) && source.apiGroup !== undefined && source.apiGroup !== null;
  return {
    allowInvalidAPIGroup: grouped(spec.dataSource) || grouped(spec.dataSourceRef),
    allowInvalidLabelValueInSelector: validateLabelSelector(spec.selector, 'spec.selector').length > 0,
    checkAttributesClass: spec.volumeAttributesClassName !== undefined && spec.volumeAttributesClassName !== null,
  };
}
