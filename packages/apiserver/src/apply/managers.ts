// managedFields entries decoded into per-manager field sets and encoded back. A manager is identified as kube does
// (BuildManagerIdentifier): by name, operation and subresource, and for Update also by apiVersion, so that an
// applier keeps one entry across versions while updaters get one entry per version.
import type { ManagedFieldsEntry } from '@kapi/apimachinery';
import { fromFieldsV1, toFieldsV1 } from './fields-v1.js';
import type { FieldSet } from './field-set.js';
import { compareStrings, goJsonString } from './go-json.js';

export type Operation = 'Apply' | 'Update';

export interface ManagerInfo {
  manager: string;
  operation: Operation;
  apiVersion: string;
  subresource?: string;
}

/** One decoded entry: who, when (RFC 3339, absent when never set), and the owned fields. */
export interface ManagedSet extends ManagerInfo {
  time?: string;
  set: FieldSet;
}

/** Decoded managedFields by manager identifier. */
export type Managers = Map<string, ManagedSet>;

/** kube's manager identifier: the entry's JSON without fields, time, and (for Apply) apiVersion. */
export function managerIdentifier(info: ManagerInfo): string {
  const parts = [`"manager":${goJsonString(info.manager)}`, `"operation":${goJsonString(info.operation)}`];
  if (info.operation === 'Update' && info.apiVersion) parts.push(`"apiVersion":${goJsonString(info.apiVersion)}`);
  if (info.subresource) parts.push(`"subresource":${goJsonString(info.subresource)}`);
  return `{${parts.join(',')}}`;
}

/** Thrown when managedFields cannot be decoded; the message is kube's. */
export class ManagedFieldsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ManagedFieldsError';
  }
}

/** Decodes managedFields (DecodeManagedFields); throws {@link ManagedFieldsError} on an invalid entry. */
export function decodeManagedFields(entries: readonly ManagedFieldsEntry[] | null | undefined): Managers {
  const out: Managers = new Map();
  if (!entries) return out;
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!;
    if (e.operation !== 'Apply' && e.operation !== 'Update') throw new ManagedFieldsError('operation must be `Apply` or `Update`');
    if (!e.apiVersion) throw new ManagedFieldsError('apiVersion must not be empty');
    if (!e.fieldsType) throw new ManagedFieldsError(`missing fieldsType in managed fields entry ${i}`);
    if (e.fieldsType !== 'FieldsV1') throw new ManagedFieldsError(`invalid fieldsType ${JSON.stringify(e.fieldsType)} in managed fields entry ${i}`);
    let set: FieldSet;
    try {
      set = fromFieldsV1(e.fieldsV1 ?? {});
    } catch (err) {
      throw new ManagedFieldsError(`error decoding versioned set: error decoding set: ${(err as Error).message}`);
    }
    const entry: ManagedSet = { manager: e.manager ?? '', operation: e.operation, apiVersion: e.apiVersion, set };
    if (e.subresource) entry.subresource = e.subresource;
    if (e.time) entry.time = e.time;
    out.set(managerIdentifier(entry), entry);
  }
  return out;
}

const seconds = (time: string | undefined): number => {
  if (!time) return 0;
  const ms = Date.parse(time);
  return Number.isNaN(ms) ? 0 : Math.floor(ms / 1000);
};

const cmp = compareStrings;

/** kube's order of managedFields entries: operation (Apply before Update), then time (seconds), manager, apiVersion, subresource. */
export function compareEntries(p: ManagedFieldsEntry, q: ManagedFieldsEntry): number {
  return cmp(p.operation!, q.operation!) || seconds(p.time) - seconds(q.time) || cmp(p.manager!, q.manager!) || cmp(p.apiVersion!, q.apiVersion!) ||
    cmp(p.subresource ?? '', q.subresource ?? '');
}

/** Encodes managers back into managedFields, in kube's order ({@link compareEntries}). Fields in kube's JSON order. */
export function encodeManagedFields(managers: Managers): ManagedFieldsEntry[] {
  const entries = [...managers.values()].map((m) => {
    const e: ManagedFieldsEntry = { manager: m.manager, operation: m.operation, apiVersion: m.apiVersion };
    if (m.time) e.time = m.time;
    e.fieldsType = 'FieldsV1';
    e.fieldsV1 = toFieldsV1(m.set);
    if (m.subresource) e.subresource = m.subresource;
    return e;
  });
  return entries.sort(compareEntries);
}

/** Seconds of an entry's time, for ordering (0 when absent). */
export const timeSeconds = seconds;
