import {
  everythingFieldSelector,
  fieldNotSupported,
  everythingLabelSelector,
  newBadRequest,
  newInvalid,
  parseFieldSelector,
  parseLabelSelector,
  StatusError,
  StatusReasons,
  type FieldError,
  type ParsedFieldSelector,
  type ParsedLabelSelector,
} from '@kapi/apimachinery';
import { supportedFieldLabels } from './field-labels.js';
import type { ResourceEntry } from './resources.js';

/** kube's ListOptions, as list, watch and deletecollection take them from the query. */
export interface ListOptions {
  labelSelector: ParsedLabelSelector;
  fieldSelector: ParsedFieldSelector;
  limit: number;
  continueToken: string;
  resourceVersion: string;
  resourceVersionMatch: string;
  /** Watch: send BOOKMARK events. */
  allowWatchBookmarks?: boolean;
  /** Watch: undefined when not given (it is a three-state option in kube). */
  sendInitialEvents?: boolean;
  /** Watch: end the stream after this many seconds. */
  timeoutSeconds?: number;
}

/** Every object of a collection, at the current revision: what in-process controllers list with. */
export const ALL_OBJECTS: ListOptions = Object.freeze({
  labelSelector: everythingLabelSelector,
  fieldSelector: everythingFieldSelector,
  limit: 0,
  continueToken: '',
  resourceVersion: '',
  resourceVersionMatch: '',
});

export const EXACT = 'Exact';
export const NOT_OLDER_THAN = 'NotOlderThan';

/**
 * A boolean query parameter as kube converts it (runtime.Convert_Slice_string_To_bool): `0` and `false` in any
 * case are false, any other value (`1`, `true`, `True` from the Python client, or a bare flag) is true, and an
 * absent one is undefined.
 */
export function queryFlag(query: URLSearchParams, name: string): boolean | undefined {
  const value = query.get(name);
  if (value === null) return undefined;
  return !(value === '0' || value.toLowerCase() === 'false');
}

function parseInteger(name: string, text: string): number {
  const n = Number(text.trim());
  if (!Number.isSafeInteger(n) || !/^\s*[+-]?\d+\s*$/.test(text)) throw newBadRequest(`invalid ${name}: ${text}`);
  return n;
}

/** Parses the list and watch query parameters (labelSelector, fieldSelector, limit, continue, resourceVersion...). */
export function parseListOptions(entry: ResourceEntry, query: URLSearchParams): ListOptions {
  const labelSelector = parseLabelSelector(query.get('labelSelector') ?? '');
  const fieldSelector = parseFieldSelector(query.get('fieldSelector') ?? '');
  const supported = supportedFieldLabels(entry);
  for (const r of fieldSelector.requirements) {
    if (!supported.includes(r.field)) {
      throw newBadRequest(`field label not supported: ${r.field}`);
    }
  }
  const limitText = query.get('limit') ?? '';
  const timeoutText = query.get('timeoutSeconds') ?? '';
  return {
    labelSelector,
    fieldSelector,
    limit: limitText ? Math.max(0, parseInteger('limit', limitText)) : 0,
    continueToken: query.get('continue') ?? '',
    resourceVersion: query.get('resourceVersion') ?? '',
    resourceVersionMatch: query.get('resourceVersionMatch') ?? '',
    allowWatchBookmarks: queryFlag(query, 'allowWatchBookmarks') ?? false,
    sendInitialEvents: queryFlag(query, 'sendInitialEvents'),
    timeoutSeconds: timeoutText ? Math.max(0, parseInteger('timeoutSeconds', timeoutText)) : undefined,
  };
}

/**
 * A resourceVersion as the storage revision it names: undefined when unset, 0 for "0". Anything but a decimal
 * number is a 400, as kube's versioner rejects it.
 */
export function parseResourceVersion(resourceVersion: string): number | undefined {
  if (resourceVersion === '') return undefined;
  const n = Number(resourceVersion);
  if (!/^\d+$/.test(resourceVersion) || !Number.isSafeInteger(n)) {
    throw newBadRequest(`resourceVersion: Invalid value: ${JSON.stringify(resourceVersion)}: strconv.ParseUint: parsing ${JSON.stringify(resourceVersion)}: invalid syntax`);
  }
  return n;
}

const forbidden = (field: string, message: string): FieldError => ({ type: 'FieldValueForbidden', field, message });

/**
 * kube's ValidateListOptions: the combinations kube's list table marks Invalid (docs/lists-and-watches.md). kube words them as a ListOptions
 * Invalid error; they are answered 400 Bad Request, with kube's message and one cause per problem.
 */
export function validateListOptions(options: ListOptions, verb: 'list' | 'watch', watchList: boolean): void {
  const errs: FieldError[] = [];
  const match = options.resourceVersionMatch;
  if (verb === 'watch') {
    if (options.sendInitialEvents !== undefined) {
      if (match !== NOT_OLDER_THAN) {
        errs.push(forbidden('resourceVersionMatch', `sendInitialEvents requires setting resourceVersionMatch to ${NOT_OLDER_THAN}`));
      }
      if (!watchList) errs.push(forbidden('sendInitialEvents', 'sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled'));
    }
    if (match) {
      if (options.sendInitialEvents === undefined) {
        errs.push(forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'));
      }
      if (match !== NOT_OLDER_THAN) errs.push(fieldNotSupported('resourceVersionMatch', match, [NOT_OLDER_THAN]));
      if (options.continueToken) errs.push(forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided'));
    }
  } else {
    if (match) {
      if (!options.resourceVersion) errs.push(forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden unless resourceVersion is provided'));
      if (options.continueToken) errs.push(forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided'));
      if (match !== EXACT && match !== NOT_OLDER_THAN) errs.push(fieldNotSupported('resourceVersionMatch', match, [EXACT, NOT_OLDER_THAN, '']));
      if (match === EXACT && options.resourceVersion === '0') {
        errs.push(forbidden('resourceVersionMatch', 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"'));
      }
    }
    if (options.sendInitialEvents !== undefined) errs.push(forbidden('sendInitialEvents', 'sendInitialEvents is forbidden for list'));
  }
  if (!errs.length) return;
  const invalid = newInvalid({ group: 'meta.k8s.io', kind: 'ListOptions' }, '', errs).status;
  throw new StatusError({ ...invalid, code: 400, reason: StatusReasons.BadRequest });
}
