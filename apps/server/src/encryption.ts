import { loadEncryptionConfig, type EncryptionConfig } from '@kapi/apiserver';
import { readFileSync } from 'node:fs';

/**
 * `--encryption-provider-config`: the EncryptionConfiguration file, read and validated at start, so a missing
 * file or a bad key fails the start (as kube-apiserver's does) instead of storing Secrets unencrypted.
 */
export function loadEncryption(path: string | undefined, log: (level: number, message: string) => void): EncryptionConfig | undefined {
  if (!path) return undefined;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(`error while parsing encryption provider configuration file "${path}": ${(error as Error).message}`);
  }
  let config: EncryptionConfig;
  try {
    config = loadEncryptionConfig(text);
  } catch (error) {
    throw new Error(`error while parsing encryption provider configuration file "${path}": ${(error as Error).message}`);
  }
  log(0, `encryption at rest: ${config.resources.join(', ') || 'no resources'} (from ${path})`);
  return config;
}
