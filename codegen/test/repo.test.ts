import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { generate } from '../src/generate.js';
import { loadSchemas } from '../src/model/load.js';
import { writeOutputs } from '../src/writer.js';
import { repoRoot } from './helpers.js';

describe('the repository', () => {
  it('has committed generated code that `pnpm codegen` would not change', () => {
    const outputs = generate(loadSchemas(join(repoRoot, 'schemas')));
    const result = writeOutputs(repoRoot, outputs, true);
    expect(result, 'run `pnpm codegen` and commit the result').toEqual({ changed: [], removed: [] });
    // Generating twenty groups takes a few seconds, more on a busy CI machine.
  }, 60_000);

  it('generates one package per group folder, wardle only from its schema files', { timeout: 60_000 }, () => {
    const outputs = generate(loadSchemas(join(repoRoot, 'schemas')));
    const packages = new Set(outputs.map((o) => o.path.split('/').slice(0, 2).join('/')));
    for (const name of ['core', 'apps', 'autoscaling', 'policy', 'coordination', 'rbac', 'authorization', 'authentication', 'wardle']) {
      expect(packages).toContain(`packages/api-${name}`);
    }
    expect(packages).toContain('packages/apimachinery');
    const wardle = outputs.filter((o) => o.path.startsWith('packages/api-wardle/')).map((o) => o.path);
    expect(wardle).toContain('packages/api-wardle/src/generated/wardle/v1alpha1/Flunder.ts');
    expect(wardle).toContain('packages/api-wardle/src/generated/wardle/v1alpha1/Fischer.ts');
    expect(wardle).toContain('packages/api-wardle/package.json');
  });
});
