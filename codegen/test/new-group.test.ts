import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createMessageCodec, type GroupDefinition } from '@kapi/apimachinery';
import { generate } from '../src/generate.js';
import { loadSchemas } from '../src/model/load.js';
import { writeOutputs } from '../src/writer.js';
import { codegenDir, repoRoot, scratchRepo } from './helpers.js';

// The documented path of docs/adding-a-group.md: drop a folder into schemas/, run codegen, get a package that
// type-checks, validates and encodes, with no hand edits.
const gizmo = {
  description: 'A Gizmo.',
  type: 'object',
  'x-kapi-resource': {
    group: 'gizmos.example.com', version: 'v1', kind: 'Gizmo', plural: 'gizmos', singular: 'gizmo',
    scope: 'Namespaced', verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
    subresources: { status: {} },
  },
  properties: {
    apiVersion: { type: 'string' },
    kind: { type: 'string' },
    metadata: { $ref: '../../meta/v1/ObjectMeta.json', 'x-kapi-field-number': 1 },
    spec: {
      type: 'object',
      'x-kapi-field-number': 2,
      required: ['size'],
      properties: {
        size: { type: 'integer', format: 'int32', 'x-kapi-field-number': 1 },
        template: { $ref: '../../core/v1/PodTemplateSpec.json', 'x-kapi-field-number': 2 },
      },
    },
    status: { type: 'object', 'x-kapi-field-number': 3, properties: {} },
  },
};

describe('adding a group by dropping in schemas', () => {
  it('yields a new package that type-checks, validates and speaks Protobuf', async () => {
    const scratch = scratchRepo(join(repoRoot, 'schemas'));
    try {
      mkdirSync(join(scratch.root, 'schemas/gizmos/v1'), { recursive: true });
      writeFileSync(join(scratch.root, 'schemas/gizmos/group.json'), '{ "group": "gizmos.example.com" }\n');
      writeFileSync(join(scratch.root, 'schemas/gizmos/v1/Gizmo.json'), JSON.stringify(gizmo, null, 2));
      writeOutputs(scratch.root, generate(loadSchemas(join(scratch.root, 'schemas'))));

      const pkg = join(scratch.root, 'packages/api-gizmos');
      for (const f of ['package.json', 'tsconfig.json', 'tsup.config.ts', 'src/index.ts', 'src/generated/gizmos/v1/Gizmo.ts']) {
        expect(existsSync(join(pkg, f)), f).toBe(true);
      }
      // The core types it references are imported from the package that owns them, never copied.
      expect(existsSync(join(pkg, 'src/generated/core'))).toBe(false);
      expect(readFileSync(join(pkg, 'src/generated/gizmos/v1/Gizmo.ts'), 'utf8')).toMatch(/import type \{ PodTemplateSpec \} from "@kapi\/api-core";/);
      expect(JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')).dependencies).toEqual({
        '@kapi/api-core': 'workspace:^',
        '@kapi/apimachinery': 'workspace:^',
      });

      const tsc = join(repoRoot, 'node_modules/typescript/bin/tsc');
      execFileSync(process.execPath, [tsc, '--noEmit', '-p', join(pkg, 'tsconfig.json')], { cwd: codegenDir, stdio: 'pipe' });

      const { group } = (await import(pathToFileURL(join(pkg, 'src/index.ts')).href)) as { group: GroupDefinition };
      expect(group.group).toBe('gizmos.example.com');
      expect(group.resources.map((r) => r.plural)).toEqual(['gizmos']);
      const validate = group.validators['gizmos.example.com/v1/Gizmo'];
      expect(validate({ spec: { size: 2 } })).toEqual([]);
      expect(validate({ spec: {} })).toEqual([{ type: 'FieldValueRequired', field: 'spec.size', message: '' }]);
      // Inside the referenced core type, with core's own checks and kube's field paths.
      expect(validate({ spec: { size: 1, template: { spec: { containers: [{ image: 'x' }] } } } })).toEqual([
        { type: 'FieldValueRequired', field: 'spec.template.spec.containers[0].name', message: '' },
      ]);

      const codec = createMessageCodec(group.protobuf);
      const object = { metadata: { name: 'g1', namespace: 'default' }, spec: { size: 2, template: { metadata: { labels: { app: 'g' } } } } };
      const message = group.resources[0].protobuf.message;
      expect(codec.decode(message, codec.encode(message, object))).toEqual(object);
    } finally {
      scratch.dispose();
    }
  }, 120_000);
});
