import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { STANDALONE_DEV_DEPENDENCIES, STANDALONE_TSCONFIG } from './emit/package.js';

export interface InitOptions {
  /** The project directory (created if missing). */
  directory: string;
  /** The API group of the starter kind. Default `widgets.example.com`. */
  group?: string;
  /** The starter kind. Default `Widget`. */
  kind?: string;
  /** The range the project depends on the @kapi packages with (this codegen's own version). */
  kapiVersion: string;
}

export interface InitResult {
  written: string[];
  /** Files that existed and were left alone. */
  kept: string[];
}

const GROUP = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)+$/;
const KIND = /^[A-Z][A-Za-z0-9]*$/;

/**
 * Writes a minimal Kapi project: one API group with one kind whose schema refers to the built-in ObjectMeta and
 * PodTemplateSpec, a server serving it over HTTPS beside the core group, and a test. `npm install` and `npm start`
 * build and serve it. Existing files are never overwritten.
 */
export function initProject(options: InitOptions): InitResult {
  const group = options.group ?? 'widgets.example.com';
  const kind = options.kind ?? 'Widget';
  if (!GROUP.test(group) || group.length > 253 || group.split('.').some((label) => label.length > 63)) {
    throw new Error(`--group ${group}: an API group is a DNS subdomain with at least one dot (widgets.example.com), at most 253 characters, labels at most 63`);
  }
  const plural = guessPlural(kind.toLowerCase());
  if (!KIND.test(kind) || kind === 'List' || plural.length > 63) {
    throw new Error(`--kind ${kind}: a kind is an UpperCamelCase identifier (Widget), not List, whose plural is at most 63 characters`);
  }
  const dir = resolve(options.directory);
  const name = projectName(basename(dir));
  const folder = group.split('.')[0];
  const files = projectFiles({ name, group, kind, folder, plural, kapi: options.kapiVersion });
  const result: InitResult = { written: [], kept: [] };
  for (const [path, content] of Object.entries(files)) {
    const target = join(dir, path);
    if (existsSync(target)) {
      result.kept.push(path);
      continue;
    }
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, content);
    result.written.push(path);
  }
  return result;
}

/** kube's guess of a kind's resource name (meta.UnsafeGuessKindToResource): status → statuses, proxy → proxies. */
function guessPlural(singular: string): string {
  if (singular.endsWith('s')) return `${singular}es`;
  if (singular.endsWith('y')) return `${singular.slice(0, -1)}ies`;
  return `${singular}s`;
}

/** An npm package name from a directory name. */
function projectName(base: string): string {
  const name = base.toLowerCase().replace(/[^a-z0-9-._~]+/g, '-').replace(/^[-._]+|[-._]+$/g, '');
  return name || 'kapi-project';
}

interface Names {
  name: string;
  group: string;
  kind: string;
  folder: string;
  plural: string;
  kapi: string;
}

function json(value: unknown): string {
  return JSON.stringify(value, null, 2) + '\n';
}

function projectFiles(n: Names): Record<string, string> {
  const kapi = (pkg: string) => [pkg, n.kapi] as const;
  return {
    'package.json': json({
      name: n.name,
      version: '0.1.0',
      private: true,
      type: 'module',
      engines: { node: '>=20.19' },
      scripts: {
        generate: 'kapi-codegen generate',
        build: 'kapi-codegen generate && tsup',
        start: 'npm run build && node dist/server.js',
        test: 'npm run build && node --test test/',
      },
      dependencies: Object.fromEntries(['@kapi/api-core', '@kapi/apimachinery', '@kapi/apiserver', '@kapi/serve', '@kapi/storage'].map(kapi)),
      devDependencies: { '@kapi/codegen': n.kapi, ...STANDALONE_DEV_DEPENDENCIES },
    }),
    'tsconfig.json': json(STANDALONE_TSCONFIG),
    'tsup.config.ts':
      `import { defineConfig } from 'tsup';\n\n` +
      `export default defineConfig({\n  entry: ['src/index.ts', 'src/app.ts', 'src/server.ts'],\n  format: ['esm'],\n  dts: false,\n` +
      `  sourcemap: true,\n  clean: true,\n  target: 'node20',\n});\n`,
    '.gitignore': 'node_modules/\ndist/\n.kapi/\n',
    [`schemas/${n.folder}/group.json`]: json({
      group: n.group,
      package: n.name,
      // The group is generated into this project itself (src/generated/), not into a package of its own.
      directory: '.',
      description: `The ${n.group} API group`,
    }),
    [`schemas/${n.folder}/v1/${n.kind}.json`]: json(kindSchema(n)),
    'src/index.ts':
      `// The ${n.group} group. Everything under ./generated comes from schemas/${n.folder}/ (npm run generate).\n` +
      `export * from './generated/index.js';\n`,
    'src/app.ts': appSource(n),
    'src/server.ts': serverSource(n),
    [`test/${n.plural}.test.mjs`]: testSource(n),
    'README.md': readme(n),
  };
}

function kindSchema(n: Names): unknown {
  return {
    description: `A ${n.kind}: a Pod template run at a given size.`,
    type: 'object',
    'x-kapi-protobuf': { message: `${n.group.split('.').reverse().join('.')}.v1.${n.kind}` },
    'x-kapi-resource': {
      group: n.group,
      version: 'v1',
      kind: n.kind,
      plural: n.plural,
      singular: n.kind.toLowerCase(),
      scope: 'Namespaced',
      verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
      subresources: { status: {} },
      printerColumns: [
        { name: 'Size', type: 'integer', jsonPath: '.spec.size', description: `How many the ${n.kind} runs.` },
        { name: 'Image', type: 'string', jsonPath: '.spec.template.spec.containers[0].image', priority: 1 },
        { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
      ],
    },
    properties: {
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      metadata: { $ref: 'kapi:meta/v1/ObjectMeta', description: "Standard object's metadata.", 'x-kapi-field-number': 1 },
      spec: {
        description: `What the ${n.kind} should be.`,
        type: 'object',
        required: ['size'],
        'x-kapi-field-number': 2,
        properties: {
          size: { description: 'How many to run.', type: 'integer', format: 'int32', default: 1, 'x-kapi-field-number': 1 },
          template: { $ref: 'kapi:core/v1/PodTemplateSpec', description: 'The Pod to run.', 'x-kapi-field-number': 2 },
        },
      },
      status: {
        description: `What the ${n.kind} is.`,
        type: 'object',
        'x-kapi-field-number': 3,
        properties: { ready: { description: 'How many are ready.', type: 'integer', format: 'int32', 'x-kapi-field-number': 1 } },
      },
    },
  };
}

function appSource(n: Names): string {
  return `import { alwaysDeny, createApiServer, groupPlugin, privilegedGroups, x509Authenticator, type ApiServer } from '@kapi/apiserver';
import { createCorePlugin } from '@kapi/api-core';
import { createMemoryBackend } from '@kapi/storage';
import { group } from './index.js';

/**
 * The API server: the core group (namespaces, ...) and ${n.group}, on in-memory storage. Client certificates
 * authenticate (the admin's, in the kubeconfig serving writes); only system:masters may do anything.
 */
export function createServer(): ApiServer {
  return createApiServer({
    storage: createMemoryBackend(),
    plugins: [createCorePlugin(), groupPlugin(group)],
    authenticators: [x509Authenticator()],
    anonymousAuth: false,
    authorizers: [privilegedGroups('system:masters'), alwaysDeny()],
  });
}
`;
}

function serverSource(n: Names): string {
  return `import { serveApiServer } from '@kapi/serve';
import { createServer } from './app.js';

// PORT=0 serves on any free port; KAPI_DATA_DIR keeps the certificates and the admin kubeconfig.
const port = Number(process.env.PORT ?? 6443);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(\`Error: PORT=\${process.env.PORT} is not a port number\`);
  process.exit(1);
}
const served = await serveApiServer({
  apiServer: createServer(),
  dataDir: process.env.KAPI_DATA_DIR ?? '.kapi',
  securePort: port === 0 ? 'ephemeral' : port,
  handleSignals: true,
  log: console.log,
  name: ${JSON.stringify(n.name)},
}).catch((error: unknown) => {
  console.error(\`Error: \${error instanceof Error ? error.message : String(error)}\`);
  process.exit(1);
});
console.log(\`try: kubectl --kubeconfig \${served.kubeconfig} api-resources\`);
`;
}

function testSource(n: Names): string {
  const api = `/apis/${n.group}/v1/namespaces/default/${n.plural}`;
  return `// Runs against the built server in-process (npm test builds first): no socket, no certificates.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createServer } from '../dist/app.js';

const server = createServer();
before(() => server.start());
after(() => server.stop());

// In-process requests come from no authenticated user: this one acts as the admin, as the kubeconfig's certificate does.
const admin = { peerCertificate: { subject: { CN: 'kapi-admin', O: ['system:masters'] } } };
const call = (method, path, body) =>
  server.fetch(new Request(\`http://localhost\${path}\`, { method, headers: { 'content-type': 'application/json' }, body: body && JSON.stringify(body) }), admin);

test('a ${n.kind} is created with its defaults and read back', async () => {
  const created = await call('POST', '${api}', {
    apiVersion: '${n.group}/v1',
    kind: '${n.kind}',
    metadata: { name: 'first' },
    spec: { template: { spec: { containers: [{ name: 'app', image: 'nginx' }] } } },
  });
  assert.equal(created.status, 201);
  const got = await (await call('GET', '${api}/first')).json();
  assert.equal(got.spec.size, 1);
  assert.equal(got.spec.template.spec.containers[0].image, 'nginx');
});

test('a ${n.kind} whose size is not a number is refused with 400, one with a bad name with 422', async () => {
  const notANumber = await call('POST', '${api}', { apiVersion: '${n.group}/v1', kind: '${n.kind}', metadata: { name: 'bad' }, spec: { size: 'many' } });
  assert.equal(notANumber.status, 400);
  assert.match((await notANumber.json()).message, /spec\\.size/);
  const badName = await call('POST', '${api}', { apiVersion: '${n.group}/v1', kind: '${n.kind}', metadata: { name: 'Bad_Name' }, spec: { size: 2 } });
  assert.equal(badName.status, 422);
  assert.equal((await badName.json()).details.causes[0].field, 'metadata.name');
});

test('an unauthenticated request is refused', async () => {
  const res = await server.fetch(new Request('http://localhost${api}'));
  assert.equal(res.status, 401);
});
`;
}

function readme(n: Names): string {
  return `# ${n.name}

A Kubernetes-compatible API server for the \`${n.group}\` group, built with [Kapi](https://github.com/kapi-dev/kapi).

\`\`\`sh
npm install
npm start        # generates, builds and serves https://127.0.0.1:6443; the admin kubeconfig is .kapi/admin.kubeconfig
\`\`\`

Then, in another shell:

\`\`\`sh
export KUBECONFIG=.kapi/admin.kubeconfig
kubectl api-resources --api-group=${n.group}
kubectl explain ${n.plural}.spec
kubectl get ${n.plural} -o wide
\`\`\`

- \`schemas/${n.folder}/v1/${n.kind}.json\` defines the kind. \`$ref: "kapi:meta/v1/ObjectMeta"\` and
  \`"kapi:core/v1/PodTemplateSpec"\` name built-in types, which are imported from @kapi/apimachinery and
  @kapi/api-core. Add versions, kinds or groups under \`schemas/\` and run \`npm run generate\`
  (\`src/generated/\` is generated: do not edit it).
- \`src/app.ts\` composes the server (storage, groups, authentication, authorization); \`src/server.ts\` serves it.
- \`npm test\` runs \`test/\` against the server in-process.
`;
}
