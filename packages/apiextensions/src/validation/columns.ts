// additionalPrinterColumns (ValidateCustomResourceColumnDefinition).
import type { FieldError } from '@kapi/apimachinery';
import { child, invalid, required } from './field.js';
import type { Column } from './internal.js';
import { validateSimpleJSONPath } from './jsonpath.js';

/** The column types kube prints, sorted as kube lists them. */
export const PRINTER_COLUMN_TYPES = ['boolean', 'date', 'integer', 'number', 'string'];
/** The column formats kube accepts, sorted as kube lists them. */
export const PRINTER_COLUMN_FORMATS = ['byte', 'date', 'date-time', 'double', 'float', 'int32', 'int64', 'password'];

/**
 * One printer column: name required, type one of PRINTER_COLUMN_TYPES, format (if set) one of
 * PRINTER_COLUMN_FORMATS, jsonPath a simple JSON path. kube names the path field `JSONPath` (its internal field).
 */
export function validateColumn(col: Column, fldPath: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!col.name) errs.push(required(child(fldPath, 'name')));
  const types = `must be one of ${PRINTER_COLUMN_TYPES.join(',')}`;
  if (!col.type) errs.push(required(child(fldPath, 'type'), types));
  else if (!PRINTER_COLUMN_TYPES.includes(col.type)) errs.push(invalid(child(fldPath, 'type'), col.type, types));
  if (col.format && !PRINTER_COLUMN_FORMATS.includes(col.format)) {
    errs.push(invalid(child(fldPath, 'format'), col.format, `must be one of ${PRINTER_COLUMN_FORMATS.join(',')}`));
  }
  if (!col.jsonPath) errs.push(required(child(fldPath, 'JSONPath')));
  else errs.push(...validateSimpleJSONPath(col.jsonPath, child(fldPath, 'JSONPath')));
  return errs;
}
