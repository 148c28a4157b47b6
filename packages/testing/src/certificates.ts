import { lstat, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generateServingSecurity, servingSecurityProblem, type ServingSecurity } from '@kapi/serve';
import { testingCacheDir } from './cache-dir.js';

let shared: Promise<ServingSecurity> | undefined;

/**
 * The certificates every test server serves with: one CA, a serving certificate for the loopback addresses and
 * localhost, and the admin's client certificate (user kapi-admin in system:masters). Making them costs more than
 * starting a server, so a process makes them once, and keeps them (without the CA's key: nothing more can be signed)
 * in a cache file that later processes read (`KAPI_TESTING_CACHE_DIR`, default `~/.cache/kapi-testing`; `off` for
 * none). Servers stay apart in everything else: an admin certificate opens every test server of its user.
 */
export function testCertificates(): Promise<ServingSecurity> {
  shared ??= cachedOrNew().catch((error: unknown) => {
    shared = undefined;
    throw error;
  });
  return shared;
}

/** The cache file, or undefined when caching is off. */
function cacheFile(): string | undefined {
  const dir = testingCacheDir();
  return dir && join(dir, 'certificates.json');
}

async function cachedOrNew(): Promise<ServingSecurity> {
  const file = cacheFile();
  const cached = file && (await readCache(file));
  if (cached) return cached;
  const made = await generateServingSecurity();
  // A cache that cannot be written only costs the next process the time to make its own.
  if (file) await writeCache(file, made).catch(() => {});
  return made;
}

/** The cached certificates when the file is ours alone (not a link, no one else may read or write it) and they still serve. */
async function readCache(file: string): Promise<ServingSecurity | undefined> {
  try {
    const stat = await lstat(file);
    if (!stat.isFile() || (stat.mode & 0o077) !== 0 || (process.getuid && stat.uid !== process.getuid())) return undefined;
    const { ca, cert, key, adminCert, adminKey } = JSON.parse(await readFile(file, 'utf8')) as Record<string, string>;
    const security: ServingSecurity = { tls: { cert, key, ca }, clientCa: ca, adminCertificate: { cert: adminCert, key: adminKey } };
    return servingSecurityProblem(security) === undefined ? security : undefined;
  } catch {
    return undefined;
  }
}

/** Writes the cache beside its place and renames it there, so that processes starting together never read half a file. */
async function writeCache(file: string, security: ServingSecurity): Promise<void> {
  const dir = join(file, '..');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const { tls, adminCertificate } = security;
  const content = JSON.stringify({ ca: tls!.ca, cert: tls!.cert, key: tls!.key, adminCert: adminCertificate!.cert, adminKey: adminCertificate!.key });
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(tmp, content, { mode: 0o600 });
  await rename(tmp, file);
}
