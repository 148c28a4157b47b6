// Reading decoded JSON as Go's typed decoding would see it: whatever a hostile client sent, a missing or mistyped
// field reads as Go's zero value (the schema validators report the type error itself).
import { isObj, type Obj } from '@kapi/apimachinery';

export { isObj, type Obj };

/** Whether a pointer field is set: present and not null (json null decodes to a nil pointer). */
export const isSet = (v: unknown): boolean => v !== undefined && v !== null;
/** A string field, `''` for anything else. */
export const text = (v: unknown): string => (typeof v === 'string' ? v : '');
/** An object field, `{}` for anything else. */
export const obj = (v: unknown): Obj => (isObj(v) ? v : {});
/** A list field, `[]` for anything else. */
export const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
/** A list of strings, each non-string item read as `''`. */
export const strings = (v: unknown): string[] => list(v).map(text);
/** Objects of a list field, each non-object item read as `{}`. */
export const objects = (v: unknown): Obj[] => list(v).map(obj);
/** Bytes in a Go string (len() counts UTF-8 bytes). */
export const byteLength = (s: string): number => Buffer.byteLength(s, 'utf8');
/** Go's strings.TrimSpace (Unicode white space). */
export const trimSpace = (s: string): string => s.replace(/^[\s\u0085]+|[\s\u0085]+$/gu, '');
