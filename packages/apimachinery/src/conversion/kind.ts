import { cloneJson } from '../meta/own.js';
import { newBadRequest } from '../errors/factories.js';
import { parseGroupVersion } from '../meta/group-version.js';
import type { KubeObject } from '../meta/object.js';
import { writePreserved, takePreserved } from './annotation.js';
import { addPreserved, applyPlan, collectPreserved, restorePreserved, type Preserved } from './plan.js';
import type { ConversionStep, KindConversion, KindConversionSpec } from './types.js';

/**
 * One step between two versions: the automatic fields by the plan, then the hook; the source's fields without
 * counterpart go into the source version's annotation, and the target version's own, kept there by an earlier
 * conversion, come back (their annotation removed). Neither `from` nor anything in it is mutated.
 */
function convertStep(spec: KindConversionSpec, step: ConversionStep, back: ConversionStep, from: KubeObject, fromVersion: string, toVersion: string): KubeObject {
  const to = applyPlan(step.plan, from) as KubeObject;
  to.apiVersion = spec.group ? `${spec.group}/${toVersion}` : toVersion;
  to.kind = spec.kind;
  let kept: Preserved | undefined = collectPreserved(step.plan, from);
  step.hook?.(from, to, {
    preserve(path, value) {
      kept ??= {};
      addPreserved(kept, path, value);
    },
  });
  const restored = takePreserved(to, toVersion);
  writePreserved(to, fromVersion, kept);
  // `back` is the other direction: its plan describes the target version's fields, which say what may be restored.
  if (restored) restorePreserved(to, restored, back.plan);
  return to;
}

/**
 * A kind's conversion from its generated description: objects of any version it names go to any other, a
 * non-storage version to another through the storage version (kube's hub). Unknown versions are a 400.
 */
export function kindConversion(spec: KindConversionSpec): KindConversion {
  const served = [spec.storageVersion, ...Object.keys(spec.versions)];
  const versionOf = (apiVersion: string | undefined): string => {
    let gv: { group: string; version: string } | undefined;
    try {
      gv = parseGroupVersion(apiVersion ?? '');
    } catch {
      gv = undefined;
    }
    if (!gv || gv.group !== spec.group || !served.includes(gv.version)) {
      const groupText = spec.group ? `${spec.group}/` : '';
      throw newBadRequest(
        `${spec.kind} cannot be converted to or from ${JSON.stringify(apiVersion ?? '')}: known versions are ${served.map((v) => groupText + v).join(', ')}`,
      );
    }
    return gv.version;
  };
  const toStorage = (obj: KubeObject, version: string) =>
    version === spec.storageVersion ? obj : convertStep(spec, spec.versions[version].toStorage, spec.versions[version].fromStorage, obj, version, spec.storageVersion);
  const fromStorage = (obj: KubeObject, version: string) =>
    version === spec.storageVersion ? obj : convertStep(spec, spec.versions[version].fromStorage, spec.versions[version].toStorage, obj, spec.storageVersion, version);

  const convertOne = (obj: KubeObject, target: string): KubeObject => {
    const source = versionOf(obj.apiVersion);
    if (source === target) return cloneJson(obj);
    return fromStorage(toStorage(obj, source), target);
  };
  return {
    storageVersion: spec.storageVersion,
    convert(objects, toApiVersion) {
      const target = versionOf(toApiVersion);
      return objects.map((obj) => convertOne(obj, target));
    },
  };
}
