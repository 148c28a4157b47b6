import { X509Certificate } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseFlags, type ServerConfig } from '../src/flags.js';
import { loadFrontProxy } from '../src/front-proxy.js';
import { ensureClientCertificates } from '@kapi/serve';

const config = (dataDir: string, ...argv: string[]): ServerConfig => {
  const parsed = parseFlags([`--data-dir=${dataDir}`, ...argv]);
  if (parsed.help) throw new Error('help');
  return parsed.config;
};

describe('loadFrontProxy', () => {
  it('generates the proxy client certificate and trusts its CA for request headers by default; reuses it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kapi-front-proxy-'));
    const said: string[] = [];
    const first = await loadFrontProxy(config(dataDir), (m) => said.push(m));
    expect(said.map((m) => m.split(' ').slice(0, 3).join(' '))).toEqual(['generated front-proxy CA', 'generated front-proxy client']);
    expect(new X509Certificate(first.clientCert).subject).toBe('CN=front-proxy-client');
    expect(new X509Certificate(first.clientCert).checkIssued(new X509Certificate(first.requestHeader!.caPem))).toBe(true);
    expect(first.requestHeader).toEqual({
      caPem: expect.stringContaining('-----BEGIN CERTIFICATE-----'),
      allowedNames: ['front-proxy-client'],
      usernameHeaders: ['X-Remote-User'],
      groupHeaders: ['X-Remote-Group'],
      extraHeaderPrefixes: ['X-Remote-Extra-'],
    });
    said.length = 0;
    expect(await loadFrontProxy(config(dataDir), (m) => said.push(m))).toEqual(first);
    expect(said).toEqual([]);
  });

  it('takes the given certificate, CA, names and headers; publishes no request-header trust without a CA', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kapi-front-proxy-'));
    // Any CA and client certificate of the right shape will do: the client CA's admin certificate.
    const other = await ensureClientCertificates({ dataDir: mkdtempSync(join(tmpdir(), 'kapi-front-proxy-ca-')) });
    const files = { cert: join(dataDir, 'proxy.crt'), key: join(dataDir, 'proxy.key'), ca: join(dataDir, 'proxy-ca.crt') };
    writeFileSync(files.cert, other.admin.cert);
    writeFileSync(files.key, other.admin.key);
    writeFileSync(files.ca, other.ca);
    const pair = [`--proxy-client-cert-file=${files.cert}`, `--proxy-client-key-file=${files.key}`];

    expect(await loadFrontProxy(config(dataDir, ...pair))).toEqual({ clientCert: other.admin.cert, clientKey: other.admin.key, requestHeader: undefined });
    expect(
      await loadFrontProxy(config(dataDir, ...pair, `--requestheader-client-ca-file=${files.ca}`, '--requestheader-username-headers=X-User', '--requestheader-allowed-names=kapi-admin')),
    ).toEqual({
      clientCert: other.admin.cert,
      clientKey: other.admin.key,
      requestHeader: { caPem: other.ca, allowedNames: ['kapi-admin'], usernameHeaders: ['X-User'], groupHeaders: ['X-Remote-Group'], extraHeaderPrefixes: ['X-Remote-Extra-'] },
    });
    await expect(loadFrontProxy(config(dataDir, `--proxy-client-cert-file=${files.cert}`, `--proxy-client-key-file=${join(dataDir, 'missing.key')}`))).rejects.toThrow(
      /^unable to load --proxy-client-key-file .*missing\.key/,
    );
  });
});
