import { runStorageConformance } from '@kapi/storage/testing';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { createSqliteBackend } from './index.js';

const root = mkdtempSync(join(tmpdir(), 'kapi-sqlite-conformance-'));
let n = 0;
afterAll(() => rmSync(root, { recursive: true, force: true }));

runStorageConformance('sqlite', () => createSqliteBackend({ path: join(root, `db-${++n}`, 'kapi.db') }));
