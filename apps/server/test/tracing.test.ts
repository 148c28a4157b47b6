import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseFlags } from '../src/flags.js';
import { loadTracingConfig } from '../src/tracing.js';

const dir = mkdtempSync(join(tmpdir(), 'kapi-tracing-config-'));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

describe('--tracing-config-file', () => {
  it("reads kube's TracingConfiguration, with kube's defaults", () => {
    expect(loadTracingConfig(file('full.yaml', 'apiVersion: apiserver.config.k8s.io/v1beta1\nkind: TracingConfiguration\nendpoint: otel:4317\nsamplingRatePerMillion: 100\n'))).toEqual({
      endpoint: 'otel:4317',
      samplingRatePerMillion: 100,
    });
    expect(loadTracingConfig(file('empty.yaml', 'apiVersion: apiserver.config.k8s.io/v1alpha1\nkind: TracingConfiguration\n'))).toEqual({
      endpoint: 'localhost:4317',
      samplingRatePerMillion: 0,
    });
  });

  it('refuses a file that is missing, of another kind, or with a rate outside 0..1000000', () => {
    expect(() => loadTracingConfig(join(dir, 'missing.yaml'))).toThrow(/failed to read tracing config file .*missing\.yaml/);
    expect(() => loadTracingConfig(file('kind.yaml', 'apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\n'))).toThrow(/no kind "EncryptionConfiguration"/);
    for (const rate of ['-1', '1000001', '0.5', '"10"']) {
      expect(() => loadTracingConfig(file('rate.yaml', `apiVersion: apiserver.config.k8s.io/v1beta1\nkind: TracingConfiguration\nsamplingRatePerMillion: ${rate}\n`))).toThrow(/samplingRatePerMillion: Invalid value/);
    }
    expect(() => loadTracingConfig(file('endpoint.yaml', 'apiVersion: apiserver.config.k8s.io/v1beta1\nkind: TracingConfiguration\nendpoint: ""\n'))).toThrow(/endpoint: Invalid value/);
  });

  it('is a file flag, resolved against the working directory', () => {
    const parsed = parseFlags(['--tracing-config-file', 'conf/tracing.yaml'], '/srv/kapi');
    expect('config' in parsed && parsed.config.tracingConfigFile).toBe('/srv/kapi/conf/tracing.yaml');
  });
});
