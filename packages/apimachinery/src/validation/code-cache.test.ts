// The validator cache on disk, as a later process sees it: the same answers as a fresh compile, read back only from
// files of this user that nobody else may touch, and never code that reaches beyond ajv's run-time helpers.
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ajvSchemas as metaSchemas } from '../generated/ajv-schemas.js';
import { setValidatorCache, usePrebuiltValidators } from './code-cache.js';
import { lazyValidators, type AjvSchemas } from './lazy.js';

const root = mkdtempSync(join(tmpdir(), 'kapi-validator-cache-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
afterEach(() => setValidatorCache(undefined));

/** A kind of our own that refers to ObjectMeta (and, through it, to managed fields and owner references). */
function widgetSchemas(sizeEnum = ['Small', 'Large']): AjvSchemas {
  return {
    'kapi://schemas/example/v1/Widget.json': {
      type: 'object',
      required: ['spec'],
      properties: {
        apiVersion: { type: 'string' },
        kind: { type: 'string' },
        metadata: { $ref: '../../meta/v1/ObjectMeta.json' },
        spec: {
          type: 'object',
          required: ['size'],
          properties: { size: { type: 'string', enum: sizeEnum }, replicas: { type: 'integer' }, tags: { type: 'array', items: { type: 'string' } } },
        },
      },
    },
  };
}
const KEYS = { 'example/v1/Widget': 'kapi://schemas/example/v1/Widget.json' };
/** What a fresh process gets: validators over the same schemas, none compiled yet. */
const fresh = (schemas = widgetSchemas(), options: { typesOnly?: boolean } = {}) => lazyValidators([schemas, metaSchemas], KEYS, options)['example/v1/Widget'];

const BAD = [
  { apiVersion: 'example/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { size: 'Medium' } },
  { apiVersion: 'example/v1', kind: 'Widget', metadata: { name: 3, labels: { a: 1 }, ownerReferences: [{ uid: 'u' }] }, spec: {} },
  { apiVersion: 'example/v1', kind: 'Widget', metadata: { managedFields: [{ manager: 1, fieldsV1: 'x' }] }, spec: { size: 'Small', replicas: 1.5, tags: [1, 'a', {}] } },
  { apiVersion: 'example/v1', kind: 'Widget', metadata: [] },
  { apiVersion: 'example/v1', kind: 'Widget', metadata: { name: 'ok' }, spec: { size: 'Large', replicas: 2 } },
];

const files = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.js'));

describe('the validator cache', () => {
  it('writes each validator once (owner only) and gives a later process the same answers as a fresh compile', () => {
    const expected = BAD.map((obj) => fresh()(obj));
    expect(expected[0]).toEqual([{ type: 'FieldValueNotSupported', field: 'spec.size', badValue: 'Medium', message: 'supported values: "Small", "Large"' }]);
    expect(expected[4]).toEqual([]);

    const dir = join(root, 'same');
    setValidatorCache(dir);
    expect(BAD.map((obj) => fresh()(obj))).toEqual(expected);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const [file] = files(dir);
    expect(files(dir)).toHaveLength(1);
    expect(statSync(join(dir, file)).mode & 0o777).toBe(0o600);
    const written = statSync(join(dir, file)).mtimeMs;

    // A later process reads the file rather than compiling and writing again, and answers alike.
    expect(BAD.map((obj) => fresh()(obj))).toEqual(expected);
    expect(files(dir)).toEqual([file]);
    expect(statSync(join(dir, file)).mtimeMs).toBe(written);

    // Type-only validators are other code, kept apart.
    const typesOnly = fresh(widgetSchemas(), { typesOnly: true });
    expect(typesOnly(BAD[0])).toEqual([]);
    expect(files(dir)).toHaveLength(2);
    expect(fresh(widgetSchemas(), { typesOnly: true })(BAD[0])).toEqual([]);
  });

  it('uses the cached code: a changed schema gets a file of its own, never the old validator', () => {
    const dir = join(root, 'changed');
    setValidatorCache(dir);
    fresh()(BAD[0]);
    expect(fresh(widgetSchemas(['Small', 'Medium']))(BAD[0])).toEqual([]);
    expect(files(dir)).toHaveLength(2);

    // What is in the file is what runs (shown by a file whose validator refuses everything with its own message).
    for (const file of files(dir)) writeFileSync(join(dir, file), `module.exports = function v() { v.errors = [{ instancePath: '/spec', keyword: 'required', params: { missingProperty: 'fromTheCache' } }]; return false; };`);
    expect(fresh()(BAD[4])).toEqual([{ type: 'FieldValueRequired', field: 'spec.fromTheCache', message: '' }]);
  });

  it('ignores and replaces files others may touch, links, broken files, and code that requires anything but ajv helpers', () => {
    const dir = join(root, 'hostile');
    setValidatorCache(dir);
    const expected = fresh()(BAD[1]);
    const [file] = files(dir);
    const path = join(dir, file);
    const refuseAll = `module.exports = function v() { v.errors = [{ instancePath: '', keyword: 'required', params: { missingProperty: 'planted' } }]; return false; };`;

    writeFileSync(path, refuseAll);
    chmodSync(path, 0o664);
    expect(fresh()(BAD[1])).toEqual(expected);
    expect(statSync(path).mode & 0o777).toBe(0o600); // compiled again and rewritten

    const elsewhere = join(root, 'planted.js');
    writeFileSync(elsewhere, refuseAll, { mode: 0o600 });
    rmSync(path);
    symlinkSync(elsewhere, path);
    expect(fresh()(BAD[1])).toEqual(expected);
    expect(readFileSync(path, 'utf8')).not.toContain('planted');

    writeFileSync(path, 'module.exports = function (', { mode: 0o600 });
    expect(fresh()(BAD[1])).toEqual(expected);
    expect(readFileSync(path, 'utf8')).toContain('module.exports');

    writeFileSync(path, `require('node:child_process').execSync('touch ${join(root, 'pwned')}'); ${refuseAll}`, { mode: 0o600 });
    expect(fresh()(BAD[1])).toEqual(expected);
    expect(readdirSync(root)).not.toContain('pwned');
  });

  it('is off until turned on, and a directory that cannot be written only costs the compile', () => {
    const before = readdirSync(root);
    expect(fresh()(BAD[0])).toHaveLength(1);
    expect(readdirSync(root)).toEqual(before);

    const blocker = join(root, 'a-file');
    writeFileSync(blocker, '');
    setValidatorCache(join(blocker, 'validators'));
    expect(fresh()(BAD[0])).toHaveLength(1);
  });

  it('loads prebuilt validators, written by their owner only, first; never writes there; a changed schema is compiled', () => {
    const dir = join(root, 'prebuilt');
    // A build fills the directory as a cache, and ships it.
    setValidatorCache(dir);
    const expected = BAD.map((obj) => fresh()(obj));
    setValidatorCache(undefined);
    const [file] = files(dir);
    const path = join(dir, file);
    // Shipped code as a package manager installs it: readable by all, written by its owner.
    chmodSync(path, 0o644);
    const stop = usePrebuiltValidators(dir);
    try {
      expect(BAD.map((obj) => fresh()(obj))).toEqual(expected);
      // The file is what runs.
      writeFileSync(path, `module.exports = function v() { v.errors = [{ instancePath: '/spec', keyword: 'required', params: { missingProperty: 'prebuilt' } }]; return false; };`);
      expect(fresh()(BAD[4])).toEqual([{ type: 'FieldValueRequired', field: 'spec.prebuilt', message: '' }]);
      // One that others may write is not used, nor replaced.
      chmodSync(path, 0o664);
      expect(fresh()(BAD[4])).toEqual([]);
      expect(readFileSync(path, 'utf8')).toContain('prebuilt');
      chmodSync(path, 0o644);
      // A kind whose schema changed is compiled, and nothing is added to the directory.
      expect(fresh(widgetSchemas(['Small', 'Medium']))(BAD[0])).toEqual([]);
      expect(files(dir)).toEqual([file]);
      // With a cache on as well, the prebuilt file still comes first, and the cache gets nothing for it.
      const cache = join(root, 'beside-prebuilt');
      setValidatorCache(cache);
      expect(fresh()(BAD[4])).toHaveLength(1);
      expect(() => readdirSync(cache)).toThrow();
    } finally {
      stop();
    }
    expect(fresh()(BAD[4])).toEqual([]);
  });
});
