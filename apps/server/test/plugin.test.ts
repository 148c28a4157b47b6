import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { enabledPlugins } from '../src/apiserver.js';
import { loadExternalPlugins } from '../src/external-plugins.js';
import { parseFlags } from '../src/flags.js';

// A real generated group package (the node group here), as a user's generated package would be imported.
const nodeGroup = pathToFileURL(join(dirname(createRequire(import.meta.url).resolve('@kapi/api-node/package.json')), 'dist/index.js')).href;
const dir = mkdtempSync(join(tmpdir(), 'kapi-plugin-'));
const moduleFile = (name: string, source: string) => {
  const file = join(dir, name);
  writeFileSync(file, source);
  return file;
};

describe('--plugin', () => {
  it('is repeatable, and file paths are made absolute against the working directory', () => {
    const parsed = parseFlags(['--plugin', './a.js', '--plugin=/abs/b.mjs', '--plugin', 'my-group-package'], '/work');
    if (parsed.help) throw new Error('help');
    expect(parsed.config.plugins).toEqual(['/work/a.js', '/abs/b.mjs', 'my-group-package']);
  });

  it('loads a module exporting `group`, `plugin`, `plugins` or a default export', async () => {
    const files = [
      moduleFile('group.mjs', `export { group } from '${nodeGroup}';`),
      moduleFile('plugin.mjs', `import { group } from '${nodeGroup}';\nexport const plugin = { definition: group, strategies: {} };`),
      moduleFile('plugins.mjs', `import { group } from '${nodeGroup}';\nexport const plugins = [{ definition: group }];`),
      moduleFile('default.mjs', `import { group } from '${nodeGroup}';\nexport default group;`),
    ];
    const plugins = await loadExternalPlugins(files);
    expect(plugins.map((p) => p.definition.group)).toEqual(Array(4).fill('node.k8s.io'));
    expect(plugins.every((p) => p.definition.resources.some((r) => r.kind === 'RuntimeClass'))).toBe(true);
  });

  it('names the flag and the reason when a module cannot be used', async () => {
    await expect(loadExternalPlugins([join(dir, 'missing.js')])).rejects.toThrow(`--plugin ${join(dir, 'missing.js')}: cannot load it: no such file`);
    await expect(loadExternalPlugins(['no-such-kapi-group'], dir)).rejects.toThrow(`--plugin no-such-kapi-group: cannot load it: no such package installed in ${dir} or above`);
    await expect(loadExternalPlugins([moduleFile('none.mjs', 'export const x = 1;')])).rejects.toThrow(/exports no group: export `plugin`/);
    await expect(loadExternalPlugins([moduleFile('wrong.mjs', 'export const plugin = { definition: 42 };')])).rejects.toThrow(/export plugin is neither a GroupPlugin nor a GroupDefinition/);
    await expect(loadExternalPlugins([moduleFile('throws.mjs', 'throw new Error("broken at load");')])).rejects.toThrow(/cannot load it: broken at load/);
  });

  it('refuses a plugin for a group the server serves already', async () => {
    const parsed = parseFlags(['--storage-backend=memory', '--secure-port=0', '--insecure-port=1']);
    if (parsed.help) throw new Error('help');
    const external = await loadExternalPlugins([moduleFile('again.mjs', `export { group } from '${nodeGroup}';`)]);
    expect(() => enabledPlugins(parsed.config, undefined, external)).toThrow('--plugin: the API group node.k8s.io is served already');
  });
});
