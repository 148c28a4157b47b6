import { requireLazily } from '@kapi/apimachinery';

/**
 * The yaml library, loaded on first use: a server whose clients never send or ask for YAML (and that reads no YAML
 * configuration) does not load it.
 */
export const yamlLibrary = requireLazily<typeof import('yaml')>(import.meta.url, 'yaml');
