import { requireLazily } from '@kapi/apimachinery';
import type { Tags } from 'yaml';

/**
 * The yaml library, loaded on first use: a server whose clients never send or ask for YAML (and that reads no YAML
 * configuration) does not load it.
 */
export const yamlLibrary = requireLazily<typeof import('yaml')>(import.meta.url, 'yaml');

const isDateOrSexagesimal = (tag: Tags[number]) => typeof tag === 'object' && (tag.tag === 'tag:yaml.org,2002:timestamp' || tag.format === 'TIME');

/**
 * YAML read as kube reads request bodies (sigs.k8s.io/yaml, on go-yaml v2): YAML 1.1, so `yes`/`no`/`on`/`off`/`y`/`n`
 * are booleans (keys too: `y:` is the key "true"), `017` is octal, `1_000` a thousand, and `<<` merges; but dates and
 * sexagesimal numbers (`1:30`) stay strings, as go-yaml v2 keeps them when decoding into interface{}.
 */
export const GO_YAML_V2 = { version: '1.1', customTags: (tags: Tags) => tags.filter((t) => !isDateOrSexagesimal(t)) } as const;
