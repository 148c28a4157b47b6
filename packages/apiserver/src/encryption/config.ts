import { yamlLibrary } from '../yaml-library.js';
import { aesCbcTransformer, aesGcmTransformer } from './aes.js';
import { identityTransformer } from './identity.js';
import { secretboxTransformer } from './secretbox.js';
import { bytes, prefixTransformers, type PrefixTransformer, type ValueTransformer } from './transformer.js';

/**
 * An apiserver.config.k8s.io/v1 EncryptionConfiguration (`--encryption-provider-config`), loaded: the transformer
 * for each group and resource, as kube-apiserver builds them.
 */
export interface EncryptionConfig {
  /**
   * The transformer for a resource's values: its own rule (`secrets`, `deployments.apps`), else its group's
   * (`*.apps`, `*.` for the core group), else `*.*`; identity (which refuses encrypted values) when none names it.
   */
  transformerFor(group: string, resource: string): ValueTransformer;
  /** The resources the configuration names, as written in it (`secrets`, `*.apps`, `*.*`), in order. */
  resources: string[];
}

const API_VERSION = 'apiserver.config.k8s.io/v1';
const KIND = 'EncryptionConfiguration';
const PROVIDERS = ['kms', 'aesgcm', 'aescbc', 'secretbox', 'identity'] as const;
const AES_KEY_SIZES = [16, 24, 32];
const SECRETBOX_KEY_SIZES = [32];
const PREFIX = { aescbc: 'k8s:enc:aescbc:v1:', aesgcm: 'k8s:enc:aesgcm:v1:', secretbox: 'k8s:enc:secretbox:v1:' } as const;
const NO_KEY = {
  aescbc: 'no matching key was found for the provided AES transformer',
  aesgcm: 'no matching key was found for the provided AES transformer',
  secretbox: 'no matching key was found for the provided Secretbox transformer',
} as const;

interface GroupResource {
  group: string;
  resource: string;
}

/** kube's schema.ParseGroupResource: `resource.group`, split at the first dot. */
function parseGroupResource(text: string): GroupResource {
  const dot = text.indexOf('.');
  return dot < 0 ? { group: '', resource: text } : { group: text.slice(dot + 1), resource: text.slice(0, dot) };
}

/** How kube names a group-resource in its messages (grYAMLString): `*.` for the core group's wildcard. */
const grString = ({ group, resource }: GroupResource) => (group === '' && resource === '*' ? '*.' : group ? `${resource}.${group}` : resource);
const grKey = ({ group, resource }: GroupResource) => `${resource}.${group}`;

/**
 * Parses and validates an EncryptionConfiguration (YAML or JSON) with kube-apiserver's rules and messages, and
 * builds its transformers. Throws an Error whose message is kube's (`error while parsing file: ...` or `error
 * while building transformers: ...`). The kms provider needs a KMS plugin, which Kapi does not talk to: it is
 * refused.
 */
export function loadEncryptionConfig(text: string): EncryptionConfig {
  const config = decode(text);
  const errors = validate(config);
  if (errors.length) throw new Error(`error while parsing file: ${aggregate(errors)}`);

  const byResource = new Map<string, PrefixTransformer[]>();
  const resources: string[] = [];
  for (const rule of config.resources) {
    const transformers = rule.providers.map(providerTransformer);
    for (const name of rule.resources) {
      const gr = parseGroupResource(name);
      // kube refuses a rule that an earlier wildcard rule already covers: it could never apply.
      for (const wider of [{ group: gr.group, resource: '*' }, { group: '*', resource: '*' }]) {
        if (byResource.has(grKey(wider))) {
          throw new Error(`error while building transformers: resource ${JSON.stringify(grString(gr))} is masked by earlier rule ${JSON.stringify(grString(wider))}`);
        }
      }
      byResource.set(grKey(gr), [...(byResource.get(grKey(gr)) ?? []), ...transformers]);
      resources.push(name);
    }
  }
  const transformers = new Map([...byResource].map(([key, list]) => [key, prefixTransformers('no matching prefix found', list)]));
  const identity = identityTransformer();
  return {
    resources,
    transformerFor(group, resource) {
      return (
        transformers.get(grKey({ group, resource })) ??
        transformers.get(grKey({ group, resource: '*' })) ??
        transformers.get(grKey({ group: '*', resource: '*' })) ??
        identity
      );
    },
  };
}

interface Key {
  name: string;
  secret: string;
}
type Provider = Partial<Record<(typeof PROVIDERS)[number], { keys?: Key[] } & Record<string, unknown>>>;
interface Config {
  resources: { resources: string[]; providers: Provider[] }[];
}

/** The file as kube's strict decoder reads it: the right apiVersion and kind, no unknown fields, the right types. */
function decode(text: string): Config {
  if (text.trim() === '') throw new Error('error while parsing file: encryption provider configuration file is empty');
  let doc: unknown;
  try {
    doc = yamlLibrary().parse(text);
  } catch (err) {
    throw new Error(`error while parsing file: ${(err as Error).message.split('\n')[0]}`);
  }
  const fail = (message: string) => new Error(`error while parsing file: ${message}`);
  if (!isObject(doc)) throw fail("couldn't get version/kind; json parse error: the file is not an object");
  if (doc.apiVersion !== API_VERSION || doc.kind !== KIND) {
    throw fail(`no kind ${JSON.stringify(doc.kind ?? '')} is registered for version ${JSON.stringify(doc.apiVersion ?? '')}: expected kind ${KIND} in ${API_VERSION}`);
  }
  const unknown: string[] = [];
  const known = (obj: Record<string, unknown>, path: string, fields: readonly string[]) => {
    for (const key of Object.keys(obj)) if (!fields.includes(key)) unknown.push(`${path}${path ? '.' : ''}${key}`);
  };
  known(doc, '', ['apiVersion', 'kind', 'resources']);
  const list = (value: unknown, path: string): unknown[] => {
    if (value === undefined || value === null) return [];
    if (!Array.isArray(value)) throw fail(`${path}: expected an array`);
    return value;
  };
  const str = (value: unknown, path: string): string => {
    if (value === undefined || value === null) return '';
    if (typeof value !== 'string') throw fail(`${path}: expected a string`);
    return value;
  };
  const obj = (value: unknown, path: string): Record<string, unknown> => {
    if (!isObject(value)) throw fail(`${path}: expected an object`);
    return value;
  };
  const resources = list(doc.resources, 'resources').map((raw, i) => {
    const path = `resources[${i}]`;
    const rule = obj(raw, path);
    known(rule, path, ['resources', 'providers']);
    return {
      resources: list(rule.resources, `${path}.resources`).map((r, j) => str(r, `${path}.resources[${j}]`)),
      providers: list(rule.providers, `${path}.providers`).map((p, j) => {
        const ppath = `${path}.providers[${j}]`;
        const provider = obj(p, ppath);
        known(provider, ppath, PROVIDERS);
        const out: Provider = {};
        for (const name of PROVIDERS) {
          if (provider[name] === undefined || provider[name] === null) continue;
          const body = obj(provider[name], `${ppath}.${name}`);
          if (name === 'identity') known(body, `${ppath}.${name}`, []);
          if (name === 'aescbc' || name === 'aesgcm' || name === 'secretbox') {
            known(body, `${ppath}.${name}`, ['keys']);
            const keys = list(body.keys, `${ppath}.${name}.keys`).map((k, n) => {
              const kpath = `${ppath}.${name}.keys[${n}]`;
              const key = obj(k, kpath);
              known(key, kpath, ['name', 'secret']);
              return { name: str(key.name, `${kpath}.name`), secret: str(key.secret, `${kpath}.secret`) };
            });
            out[name] = { keys };
          } else out[name] = body;
        }
        return out;
      }),
    };
  });
  if (unknown.length) throw fail(`strict decoding error: ${unknown.map((f) => `unknown field ${JSON.stringify(f)}`).join(', ')}`);
  return { resources };
}

/** kube's ValidateEncryptionConfiguration, as field errors in kube's words. */
function validate(config: Config): string[] {
  const errors: string[] = [];
  if (config.resources.length === 0) return ['resources: Required value: at least one resources is required'];
  config.resources.forEach((rule, i) => {
    const r = `resources[${i}].resources`;
    const p = `resources[${i}].providers`;
    if (rule.resources.length === 0) errors.push(`${r}: Required value: at least one ${r} is required`);
    errors.push(...validateOverlap(rule.resources, r), ...validateResourceNames(rule.resources, r));
    if (rule.providers.length === 0) errors.push(`${p}: Required value: at least one ${p} is required`);
    rule.providers.forEach((provider, j) => {
      const path = `${p}[${j}]`;
      const present = PROVIDERS.filter((name) => provider[name] !== undefined);
      if (present.length === 0) {
        errors.push(`${path}: Invalid value: ${goValue(provider)}: provider does not contain any of the expected providers: KMS, AESGCM, AESCBC, Secretbox, Identity`);
        return;
      }
      if (present.length > 1) {
        errors.push(`${path}: Invalid value: ${goValue(provider)}: more than one provider specified in a single element, should split into different list elements`);
        return;
      }
      const name = present[0];
      if (name === 'kms') errors.push(`${path}.kms: Forbidden: the kms provider needs a KMS plugin, which Kapi does not support`);
      if (name === 'aesgcm' || name === 'aescbc' || name === 'secretbox') {
        errors.push(...validateKeys(provider[name]!.keys ?? [], `${path}.${name}.keys`, name === 'secretbox' ? SECRETBOX_KEY_SIZES : AES_KEY_SIZES));
      }
    });
  });
  return errors;
}

function validateKeys(keys: Key[], path: string, sizes: number[]): string[] {
  if (keys.length === 0) return [`${path}: Required value: at least one keys is required`];
  const errors: string[] = [];
  keys.forEach((key, i) => {
    const kpath = `${path}[${i}]`;
    if (key.name === '') errors.push(`${kpath}.name: Required value: name is a mandatory field for a key`);
    if (key.secret === '') {
      errors.push(`${kpath}.secret: Required value: secret is a mandatory field for a key`);
      return;
    }
    const secret = decodeBase64(key.secret);
    if (!secret) {
      errors.push(`${kpath}.secret: Invalid value: "REDACTED": secrets must be base64 encoded`);
      return;
    }
    if (!sizes.includes(secret.length)) {
      errors.push(`${kpath}.secret: Invalid value: "REDACTED": secret is not of the expected length, got ${secret.length}, expected one of [${sizes.join(' ')}]`);
    }
  });
  return errors;
}

function validateOverlap(resources: string[], path: string): string[] {
  if (resources.length < 2) return [];
  const grs = resources.map(parseGroupResource);
  let duplicate = false;
  let overlap = false;
  // kube's loop, pair by pair: the first equal pair counts as a duplicate, later ones as overlaps.
  grs.forEach((a, i) =>
    grs.forEach((b, j) => {
      if (i === j) return;
      if (a.group === b.group && a.resource === b.resource && !duplicate) {
        duplicate = true;
        return;
      }
      if (overlap) return;
      if ((a.group === '*' && a.resource === '*') || (a.group === b.group && (a.resource === '*' || b.resource === '*'))) overlap = true;
    }),
  );
  const value = `[]string{${resources.map((r) => JSON.stringify(r)).join(', ')}}`;
  return [
    ...(duplicate ? [`${path}: Invalid value: ${value}: the same resource cannot be specified multiple times`] : []),
    ...(overlap ? [`${path}: Invalid value: ${value}: using overlapping resources such as 'secrets' and '*.' in the same resource list is not allowed as they will be masked`] : []),
  ];
}

function validateResourceNames(resources: string[], path: string): string[] {
  const errors: string[] = [];
  resources.forEach((res, j) => {
    const invalid = (message: string) => errors.push(`${path}[${j}]: Invalid value: ${JSON.stringify(res)}: ${message}`);
    const gr = parseGroupResource(res);
    if (res.toLowerCase() !== res) invalid('resource name should not contain capital letters');
    else if (res === '*') invalid("use '*.' to encrypt all the resources from core API group or *.* to encrypt all resources");
    else if (['apiserveripinfo', 'serviceipallocations', 'servicenodeportallocations'].includes(res)) invalid('resources which do not have REST API/s cannot be encrypted');
    else if (gr.group === 'events.k8s.io') invalid("'*.events.k8s.io' objects are stored using the 'events' API group in etcd. Use 'events' instead in the config file");
    else if (gr.group === 'extensions') invalid("'extensions' group has been removed and cannot be used for encryption");
    else if (gr.group === '*' && gr.resource !== '*') invalid('encrypting the same resource across groups is not supported');
  });
  return errors;
}

/** The transformer of one provider entry: identity, or the provider's keys behind its `k8s:enc:<provider>:v1:` prefix. */
function providerTransformer(provider: Provider): PrefixTransformer {
  if (provider.identity) return { prefix: new Uint8Array(0), transformer: identityTransformer() };
  const name = provider.aescbc ? 'aescbc' : provider.aesgcm ? 'aesgcm' : 'secretbox';
  const make = name === 'aescbc' ? aesCbcTransformer : name === 'aesgcm' ? aesGcmTransformer : secretboxTransformer;
  const keys = provider[name]!.keys!.map((key) => ({ prefix: bytes(`${key.name}:`), transformer: make(decodeBase64(key.secret)!) }));
  return { prefix: bytes(PREFIX[name]), transformer: prefixTransformers(NO_KEY[name], keys) };
}

/** Go's base64.StdEncoding: padded standard alphabet (line breaks ignored); undefined when it is not that. */
function decodeBase64(text: string): Uint8Array | undefined {
  const clean = text.replace(/[\r\n]/g, '');
  if (clean.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(clean)) return undefined;
  return new Uint8Array(Buffer.from(clean, 'base64'));
}

/** kube's aggregate error: one error as itself, several in brackets. */
function aggregate(errors: string[]): string {
  return errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`;
}

/** A provider entry as Go's %#v would roughly show it in a field error. */
function goValue(value: unknown): string {
  return JSON.stringify(value);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
