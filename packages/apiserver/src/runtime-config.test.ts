import type { GroupDefinition, ResourceInfo } from '@kapi/apimachinery';
import { describe, expect, it } from 'vitest';
import type { GroupPlugin } from './plugin.js';
import { applyRuntimeConfig, parseRuntimeConfig, RuntimeConfigError, validateRuntimeConfig } from './runtime-config.js';

const resource = (group: string, version: string, kind: string, plural: string) => ({ group, version, kind, plural }) as ResourceInfo;

function plugin(group: string, resources: ResourceInfo[], extra: Partial<GroupPlugin> = {}): GroupPlugin {
  const versions = [...new Set(resources.map((r) => r.version))];
  return { definition: { group, versions, resources } as unknown as GroupDefinition, ...extra };
}

const core = plugin('', [resource('', 'v1', 'Pod', 'pods'), resource('', 'v1', 'ConfigMap', 'configmaps')]);
const apps = plugin('apps', [resource('apps', 'v1', 'Deployment', 'deployments'), resource('apps', 'v1', 'ReplicaSet', 'replicasets')]);
const events = plugin('events.k8s.io', [resource('events.k8s.io', 'v1', 'Event', 'events')], { storedAs: { Event: { group: '', resource: 'events' } } });
const wardle = plugin('wardle.example.com', [
  resource('wardle.example.com', 'v1alpha1', 'Flunder', 'flunders'),
  resource('wardle.example.com', 'v1alpha1', 'Fischer', 'fischers'),
  resource('wardle.example.com', 'v1beta1', 'Flunder', 'flunders'),
]);
const plugins = [core, apps, events, wardle];

/** What the result serves, as `group/version: plurals`. */
const served = (result: GroupPlugin[]) =>
  result.flatMap((p) => p.definition.versions.map((v) => `${p.definition.group || 'core'}/${v}: ${p.definition.resources.filter((r) => r.version === v).map((r) => r.plural).join(' ')}`));

const apply = (flag: string) => applyRuntimeConfig(plugins, parseRuntimeConfig([flag]));
const failure = (flag: string) => {
  try {
    apply(flag);
  } catch (error) {
    expect(error).toBeInstanceOf(RuntimeConfigError);
    return (error as Error).message;
  }
  return undefined;
};

describe('parseRuntimeConfig', () => {
  it('reads repeated, comma-separated key=value pairs as pflag does', () => {
    expect(parseRuntimeConfig(['api/all=false, apps/v1=true', 'v1', 'apps/v1=false,,'])).toEqual({ 'api/all': 'false', 'apps/v1': 'false', v1: '' });
    expect(parseRuntimeConfig([])).toEqual({});
  });
});

describe('applyRuntimeConfig', () => {
  it('serves everything by default and returns the same plugins', () => {
    const result = applyRuntimeConfig(plugins, {});
    expect(result).toEqual(plugins);
    expect(result[0]).toBe(core);
  });

  it('drops a group whose every version is turned off', () => {
    expect(served(apply('wardle.example.com/v1alpha1=false,wardle.example.com/v1beta1=false'))).toEqual(['core/v1: pods configmaps', 'apps/v1: deployments replicasets', 'events.k8s.io/v1: events']);
  });

  it('narrows a group to the versions left on, without touching the original', () => {
    const result = apply('wardle.example.com/v1alpha1=false');
    expect(served(result).at(-1)).toBe('wardle.example.com/v1beta1: flunders');
    expect(wardle.definition.versions).toEqual(['v1alpha1', 'v1beta1']);
    expect(result.at(-1)!.definition.validators).toBe(wardle.definition.validators);
  });

  it('applies api/all, api/ga, api/beta and api/alpha in that order, then versions, then resources', () => {
    expect(served(apply('api/all=false,api/beta=true'))).toEqual(['wardle.example.com/v1beta1: flunders']);
    expect(served(apply('api/alpha=false'))).toEqual([
      'core/v1: pods configmaps',
      'apps/v1: deployments replicasets',
      'events.k8s.io/v1: events',
      'wardle.example.com/v1beta1: flunders',
    ]);
    expect(served(apply('api/all=false,apps/v1=true,api/v1=true'))).toEqual(['core/v1: pods configmaps', 'apps/v1: deployments replicasets']);
    expect(served(apply('api/all=false,apps/v1/deployments=true'))).toEqual(['apps/v1: deployments']);
    expect(served(apply('apps/v1/replicasets=false,v1/configmaps=false,api/legacy=false,events.k8s.io/v1'))).toEqual([
      'core/v1: pods',
      'apps/v1: deployments',
      'events.k8s.io/v1: events',
      'wardle.example.com/v1alpha1: flunders fischers',
      'wardle.example.com/v1beta1: flunders',
    ]);
    expect(served(apply('api/ga=false,apps/v1=1'))).toEqual([
      'apps/v1: deployments replicasets',
      'wardle.example.com/v1alpha1: flunders fischers',
      'wardle.example.com/v1beta1: flunders',
    ]);
  });

  it('drops storedAs of kinds no longer served', () => {
    const result = applyRuntimeConfig([plugin('events.k8s.io', [...events.definition.resources, resource('events.k8s.io', 'v1', 'Other', 'others')], { storedAs: events.storedAs })], { 'events.k8s.io/v1/events': 'false' });
    expect(result[0].storedAs).toEqual({});
  });

  it("fails with kube-apiserver's messages", () => {
    expect(failure('api/all=false')).toBe('invalid runtime-config with only api/all=false');
    expect(failure('a/b/c/d=true')).toBe('runtime-config invalid key a/b/c/d');
    expect(failure('apps=true')).toBe('runtime-config invalid key apps');
    expect(failure('foo.example.com/v1=false,bar.io/v2')).toBe('unknown api groups bar.io/v2,foo.example.com/v1');
    expect(failure('apps/v2=true')).toBe('group version apps/v2 that has not been registered');
    expect(failure('v2=false')).toBe('runtime-config invalid key v2');
    expect(failure('apps/v1=maybe')).toBe('invalid value of apps/v1: maybe, err: strconv.ParseBool: parsing "maybe": invalid syntax');
    expect(failure('api/beta=1')).toBe('invalid value api/beta=1');
    expect(failure('apps/v1/Deployments=false')).toBe('invalid key apps/v1/Deployments: group/version/resource and resource is always lowercase plural, not "Deployments"');
    expect(() => validateRuntimeConfig({ 'api/all': 'false', 'apps/v1': 'true' })).not.toThrow();
  });
});
