import { parseResourceQuotaConfiguration, type ResourceQuotaConfiguration } from '@kapi/api-core';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, isAbsolute, join } from 'node:path';

/** The admission plugins' configurations the server reads from `--admission-control-config-file`. */
export interface AdmissionConfigs {
  /** The ResourceQuota plugin's (`limitedResources`). */
  resourceQuota?: ResourceQuotaConfiguration;
}

const VERSIONS = new Set(['apiserver.config.k8s.io/v1', 'apiserver.config.k8s.io/v1alpha1']);

/** A YAML or JSON file as kube's decoder reads it, or kube's reason it cannot be read. */
function readDocument(path: string, what: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new Error(`unable to read ${what} from ${JSON.stringify(path)} [open ${path}: ${code === 'ENOENT' ? 'no such file or directory' : (err as Error).message}]`);
  }
  try {
    // Loaded only when the flag is given: a start without it does not load the YAML library.
    const { parse } = createRequire(import.meta.url)('yaml') as typeof import('yaml');
    return parse(text);
  } catch (err) {
    throw new Error(`unable to decode ${what} from ${JSON.stringify(path)}: ${(err as Error).message}`);
  }
}

/**
 * `--admission-control-config-file`, read as kube-apiserver's ReadAdmissionConfiguration reads it: an
 * apiserver.config.k8s.io/v1 (or v1alpha1) AdmissionConfiguration whose `plugins` give each plugin its configuration
 * inline (`configuration`) or in a file (`path`, relative to this one's directory). The ResourceQuota plugin's is
 * decoded and validated; a bad one fails the start, as kube's admission initialization does. Configurations of
 * plugins this server does not configure are reported through `log` and otherwise left alone.
 */
export function loadAdmissionConfiguration(path: string | undefined, log: (level: number, message: string) => void = () => {}): AdmissionConfigs {
  if (!path) return {};
  const doc = readDocument(path, 'admission control configuration');
  const obj = (doc && typeof doc === 'object' ? doc : {}) as { apiVersion?: unknown; kind?: unknown; plugins?: unknown };
  if (!obj.kind) throw new Error(`Object 'Kind' is missing in ${JSON.stringify(path)}`);
  if (obj.kind !== 'AdmissionConfiguration' || !VERSIONS.has(String(obj.apiVersion))) {
    throw new Error(`no kind "${String(obj.kind)}" is registered for version "${String(obj.apiVersion ?? '')}" in ${JSON.stringify(path)}`);
  }
  const configs: AdmissionConfigs = {};
  for (const entry of Array.isArray(obj.plugins) ? obj.plugins : []) {
    const plugin = (entry && typeof entry === 'object' ? entry : {}) as { name?: unknown; path?: unknown; configuration?: unknown };
    const name = String(plugin.name ?? '');
    if (name !== 'ResourceQuota') {
      log(0, `admission control configuration ${path}: the configuration of plugin "${name}" is not read by this server`);
      continue;
    }
    let configuration = plugin.configuration;
    if (configuration === undefined && plugin.path) {
      const file = String(plugin.path);
      configuration = readDocument(isAbsolute(file) ? file : join(dirname(path), file), `the configuration of admission plugin "${name}"`);
    }
    if (configuration === undefined) continue;
    try {
      configs.resourceQuota = parseResourceQuotaConfiguration(configuration);
    } catch (err) {
      throw new Error(`failed to initialize admission: couldn't init admission plugin "ResourceQuota": ${(err as Error).message}`);
    }
  }
  return configs;
}
