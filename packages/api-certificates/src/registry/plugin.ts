import { textAt } from '@kapi/apimachinery';
import type { GroupPlugin } from '@kapi/apiserver';
import { group } from '../generated/index.js';
import { approvalAction, csrPrinter, csrStrategy } from './csr.js';

/**
 * The certificates.k8s.io group as a server installs it: CertificateSigningRequests that record their requester,
 * the approval subresource (`kubectl certificate approve`), the table printer. Nothing signs the requests: a
 * signer is a controller of its own, as in kube.
 */
export const plugin: GroupPlugin = {
  definition: group,
  strategies: { CertificateSigningRequest: { ...csrStrategy, fieldLabels: { 'spec.signerName': textAt('spec.signerName') } } },
  printers: { CertificateSigningRequest: csrPrinter },
  install(host) {
    host.addSubresource({ group: 'certificates.k8s.io', resource: 'certificatesigningrequests', subresource: 'approval' }, approvalAction(host));
  },
};
