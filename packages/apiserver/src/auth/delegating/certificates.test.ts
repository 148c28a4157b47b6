import { describe, expect, it } from 'vitest';
import { parseCertificateBundle, subjectOf, verifyClientChain } from './certificates.js';
import { makeCa, makeCert } from './pki.fixtures.js';

const ca = makeCa('client-ca');
const other = makeCa('other-ca');
const DAY = 86_400_000;

describe('verifyClientChain', () => {
  it('accepts a client certificate signed by a trusted root, and returns the leaf', () => {
    const leaf = makeCert(ca, '/CN=alice/O=dev/O=ops');
    expect(verifyClientChain([leaf.x509], parseCertificateBundle(other.cert + ca.cert))).toBe(leaf.x509);
    expect(subjectOf(leaf.x509)).toEqual({ cn: 'alice', o: ['dev', 'ops'] });
  });

  it('refuses a certificate of another CA, even one with the same subject', () => {
    const forged = makeCert(makeCa('client-ca'), '/CN=alice');
    expect(() => verifyClientChain([forged.x509], [ca.x509])).toThrow('x509: certificate signed by unknown authority');
  });

  it('refuses a certificate that expired, or is not yet valid', () => {
    const leaf = makeCert(ca, '/CN=alice', { days: 1 });
    expect(() => verifyClientChain([leaf.x509], [ca.x509], new Date(Date.now() + 3 * DAY))).toThrow(/expired/);
    expect(() => verifyClientChain([leaf.x509], [ca.x509], new Date(Date.now() - 3 * DAY))).toThrow(/expired or is not yet valid/);
  });

  it('refuses a certificate not meant for client authentication', () => {
    const serving = makeCert(ca, '/CN=alice', { usage: 'serverAuth' });
    expect(() => verifyClientChain([serving.x509], [ca.x509])).toThrow(/incompatible key usage/);
  });

  it('follows intermediates the client sent, which must be CAs', () => {
    const intermediate = makeCert(ca, '/CN=intermediate', { isCa: true });
    const leaf = makeCert(intermediate, '/CN=bob');
    expect(verifyClientChain([leaf.x509, intermediate.x509], [ca.x509])).toBe(leaf.x509);
    expect(() => verifyClientChain([leaf.x509], [ca.x509])).toThrow(/unknown authority/);
    // a leaf (not a CA) cannot sign for another
    const notCa = makeCert(ca, '/CN=carol');
    const signedByLeaf = makeCert(notCa, '/CN=mallory');
    expect(() => verifyClientChain([signedByLeaf.x509, notCa.x509], [ca.x509])).toThrow(/unknown authority/);
  });

  it('refuses an empty chain, and an empty CA bundle', () => {
    expect(() => verifyClientChain([], [ca.x509])).toThrow();
    expect(() => parseCertificateBundle('')).toThrow(/does not contain any valid/);
  });
});
