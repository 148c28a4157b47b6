import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkExternalPlugins, enabledPlugins } from '../src/apiserver.js';
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
    // There, but importing what is not installed: the message names what is missing, not the module itself.
    await expect(loadExternalPlugins([moduleFile('needs.mjs', "import 'no-such-kapi-dependency';")])).rejects.toThrow(/cannot load it: .*no-such-kapi-dependency/);
    const wrong = moduleFile('wrong.mjs', 'export const plugin = { definition: 42 };');
    await expect(loadExternalPlugins([wrong])).rejects.toThrow(`--plugin ${wrong}: export plugin is neither a GroupPlugin nor a GroupDefinition`);
    await expect(loadExternalPlugins([moduleFile('throws.mjs', 'throw new Error("broken at load");')])).rejects.toThrow(/cannot load it: broken at load/);
    // A top-level await that never settles leaves the event loop empty: without the timer the process would exit 0.
    const hangs = moduleFile('hangs.mjs', 'await new Promise(() => {});\nexport const plugin = 1;');
    await expect(loadExternalPlugins([hangs], dir, 300)).rejects.toThrow(`--plugin ${hangs}: cannot load it: it did not finish loading within 0.3 s`);
  });

  it('refuses an empty value', () => {
    expect(() => parseFlags(['--plugin', ''])).toThrow('invalid argument "" for "--plugin" flag: empty');
  });

  it('refuses a plugin for a group the server serves already, naming it', async () => {
    const parsed = parseFlags(['--storage-backend=memory', '--secure-port=0', '--insecure-port=1']);
    if (parsed.help) throw new Error('help');
    const again = moduleFile('again.mjs', `export { group } from '${nodeGroup}';`);
    const external = await loadExternalPlugins([again]);
    expect(() => checkExternalPlugins(external)).toThrow(`--plugin ${again}: the API group node.k8s.io is served already`);
    expect(() => enabledPlugins(parsed.config, undefined, external)).toThrow('is served already');
  });
});
