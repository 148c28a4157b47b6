import type { X509Certificate } from 'node:crypto';
import type { Authenticator } from '../types.js';
import { unauthorized } from '../authenticators.js';
import { subjectOf, verifyClientChain } from './certificates.js';

/**
 * kube's x509 authenticator with a dynamic client CA (the main server's `client-ca-file`): a client certificate
 * that chains to it (within its validity, usable for client authentication) authenticates as its CN, with its O
 * values as groups. No certificate, or no client CA known, is no opinion; a certificate that does not verify is a
 * rejected credential (401 unless another authenticator finds the user). A verified certificate without CN is no
 * opinion, as in kube.
 */
export function clientCertificateAuthenticator(clientCa: () => readonly X509Certificate[] | undefined): Authenticator {
  return ({ peerCertificateChain }) => {
    const roots = clientCa();
    if (!roots || !peerCertificateChain || peerCertificateChain.length === 0) return undefined;
    let leaf;
    try {
      leaf = verifyClientChain(peerCertificateChain, roots);
    } catch {
      throw unauthorized();
    }
    const { cn, o } = subjectOf(leaf);
    if (!cn) return undefined;
    return { username: cn, groups: o };
  };
}
