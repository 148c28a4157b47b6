import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadAdmissionConfiguration } from '../src/admission-config.js';

describe('--admission-control-config-file (kube AdmissionConfiguration)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kapi-admission-config-'));
  const write = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  it("reads the ResourceQuota plugin's configuration from a path relative to the file, and leaves other plugins' alone", () => {
    write('quota.yaml', 'apiVersion: resourcequota.admission.k8s.io/v1beta1\nkind: Configuration\nlimitedResources:\n- apiGroup: ""\n  resource: pods\n  matchContains: [cpu]\n');
    const path = write(
      'admission.yaml',
      // A plugin this server does not configure may name a file that is not there: it is not read.
      'apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: PodSecurity\n  path: missing.yaml\n- name: ResourceQuota\n  path: quota.yaml\n',
    );
    const logged: string[] = [];
    const configs = loadAdmissionConfiguration(path, (_level, message) => void logged.push(message));
    expect(configs.resourceQuota).toEqual({ limitedResources: [{ apiGroup: '', resource: 'pods', matchContains: ['cpu'], matchScopes: [] }] });
    expect(logged).toEqual([`admission control configuration ${path}: the configuration of plugin "PodSecurity" is not read by this server`]);
  });

  it('refuses a configuration of another kind, and a ResourceQuota configuration of a kind its plugin does not read', () => {
    const wrong = write('wrong.yaml', 'apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: ResourceQuota\n  configuration: {apiVersion: v1, kind: ConfigMap}\n');
    expect(() => loadAdmissionConfiguration(wrong)).toThrow(
      'failed to initialize admission: couldn\'t init admission plugin "ResourceQuota": no kind "ConfigMap" is registered for version "v1" in the ResourceQuota plugin\'s scheme',
    );
    const noKind = write('no-kind.yaml', 'plugins: []\n');
    expect(() => loadAdmissionConfiguration(noKind)).toThrow(`Object 'Kind' is missing in "${noKind}"`);
  });
});
