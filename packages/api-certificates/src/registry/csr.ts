import {
  cloneJson,
  age,
  at,
  listAt,
  humanDuration,
  newBadRequest,
  nowTimestamp,
  newForbidden,
  newInvalid,
  newMethodNotSupported,
  newNotFound,
  str,
  type FieldError,
  type KubeObject,
  type TablePrinter,
} from '@kapi/apimachinery';
import type { PluginHost, Strategy, SubresourceAction } from '@kapi/apiserver';

type Condition = { type?: string; status?: string; reason?: string; message?: string; lastUpdateTime?: string; lastTransitionTime?: string };
type Csr = KubeObject & {
  spec?: { request?: string; signerName?: string; username?: string; uid?: string; groups?: string[]; extra?: Record<string, string[]>; expirationSeconds?: number };
  status?: { conditions?: Condition[]; certificate?: string };
};

const GR = { group: 'certificates.k8s.io', resource: 'certificatesigningrequests' };
const DECISIONS = ['Approved', 'Denied'];

/** ValidateCertificateSigningRequestCreate's checks clients meet: a signer, and a PEM certificate request. */
function validateCsr(obj: KubeObject): FieldError[] {
  const spec = (obj as Csr).spec ?? {};
  const errs: FieldError[] = [];
  if (!spec.signerName) errs.push({ type: 'FieldValueRequired', field: 'spec.signerName', message: '' });
  if (!spec.request) {
    errs.push({ type: 'FieldValueRequired', field: 'spec.request', message: '' });
  } else if (!Buffer.from(spec.request, 'base64').toString('latin1').includes('-----BEGIN CERTIFICATE REQUEST-----')) {
    errs.push({ type: 'FieldValueInvalid', field: 'spec.request', message: 'PEM block type must be CERTIFICATE REQUEST' });
  }
  return errs;
}

/**
 * CertificateSigningRequests (kube's pkg/registry/certificates/certificates): the requester's identity is the
 * server's to record, not the client's; an update of the main resource changes neither spec nor status (the
 * status and approval subresources do).
 */
export const csrStrategy: Strategy = {
  prepareForCreate(obj, ctx) {
    const csr = obj as Csr;
    const { user } = ctx;
    csr.spec = { ...csr.spec, username: user.username, groups: [...user.groups] };
    if (user.uid) csr.spec.uid = user.uid;
    else delete csr.spec.uid;
    if (user.extra && Object.keys(user.extra).length) csr.spec.extra = cloneJson(user.extra);
    else delete csr.spec.extra;
    csr.status = {};
  },
  // The store carries the status over (the kind has a status subresource); the spec stays as created.
  prepareForUpdate(obj, old) {
    (obj as Csr).spec = cloneJson((old as Csr).spec);
  },
  validate: validateCsr,
  validateUpdate(obj, old, ctx) {
    const errs = validateCsr(obj);
    // The status subresource may not decide a request: that is the approval subresource's, with its signer check.
    if (ctx.subresource === 'status') {
      const decisions = (o: KubeObject) => ((o as Csr).status?.conditions ?? []).filter((c) => DECISIONS.includes(String(c.type))).map((c) => c.type).sort();
      const [now, before] = [decisions(obj), decisions(old)];
      for (const type of now) if (!before.includes(type)) errs.push({ type: 'FieldValueForbidden', field: 'status.conditions', message: `updates may not add a condition of type "${type}"` });
      for (const type of before) if (!now.includes(type)) errs.push({ type: 'FieldValueForbidden', field: 'status.conditions', message: `updates may not remove a condition of type "${type}"` });
    }
    return errs;
  },
};

/** ValidateCertificateSigningRequestApprovalUpdate: one decision, true, never taken back. */
function approvalErrors(conditions: Condition[], old: Condition[]): FieldError[] {
  const errs: FieldError[] = [];
  const has = (list: Condition[], type: string) => list.some((c) => c.type === type);
  conditions.forEach((c, i) => {
    if (!c.type) errs.push({ type: 'FieldValueRequired', field: `status.conditions[${i}].type`, message: '' });
    if (DECISIONS.includes(String(c.type)) && c.status !== 'True') {
      errs.push({ type: 'FieldValueNotSupported', field: `status.conditions[${i}].status`, badValue: c.status ?? '', message: 'supported values: "True"' });
    }
  });
  if (has(conditions, 'Approved') && has(conditions, 'Denied')) {
    errs.push({ type: 'FieldValueInvalid', field: 'status.conditions', message: 'Approved and Denied conditions are mutually exclusive' });
  }
  for (const type of DECISIONS) {
    if (has(old, type) && !has(conditions, type)) errs.push({ type: 'FieldValueForbidden', field: 'status.conditions', message: `updates may not remove a condition of type "${type}"` });
  }
  return errs;
}

/**
 * `certificatesigningrequests/NAME/approval`: GET reads the request; PUT records an Approved or Denied condition
 * (and nothing else of the body), for a user who may `approve` the request's signer (kube's
 * certificatesigningrequests/approval with the CertificateApproval admission plugin).
 */
export function approvalAction(host: PluginHost): SubresourceAction {
  return async ({ ctx, name, verb, body }) => {
    const mainCtx = { ...ctx, subresource: '' };
    if (verb === 'get') return { status: 200, object: await host.store.get(mainCtx, name) };
    if (verb !== 'update') throw newMethodNotSupported(GR, verb);
    const sent = (await body()) as Csr | undefined;
    if (!sent || typeof sent !== 'object') throw newBadRequest('the body of the request must be a CertificateSigningRequest');
    if (sent.metadata?.name !== undefined && sent.metadata.name !== name) {
      throw newBadRequest(`the name of the object (${sent.metadata.name}) does not match the name on the URL (${name})`);
    }
    const result = await host.store.update({ ...ctx, subresource: 'approval' }, name, async (current) => {
      if (!current) throw newNotFound(GR, name);
      const csr = current as Csr;
      const signer = csr.spec?.signerName ?? '';
      const decision = await host.authorize({
        user: ctx.user, verb: 'approve', resourceRequest: true, path: '', apiGroup: 'certificates.k8s.io', apiVersion: '*',
        resource: 'signers', subresource: '', namespace: '', name: signer,
      });
      if (decision.decision !== 'allow') {
        throw newForbidden(GR, name, new Error(`user not permitted to approve requests with signerName "${signer}"`));
      }
      const conditions = [...(sent.status?.conditions ?? [])];
      const errs = approvalErrors(conditions, csr.status?.conditions ?? []);
      if (errs.length) throw newInvalid({ group: 'certificates.k8s.io', kind: 'CertificateSigningRequest' }, name, errs);
      const now = nowTimestamp();
      for (const c of conditions) {
        c.lastUpdateTime ||= now;
        c.lastTransitionTime ||= now;
      }
      // The resourceVersion the client sent, if any, is the store's precondition (409 when it is not current's).
      const resourceVersion = sent.metadata?.resourceVersion ?? csr.metadata?.resourceVersion;
      return { ...csr, metadata: { ...csr.metadata, resourceVersion }, status: { ...csr.status, conditions } };
    });
    return { status: 200, object: result.obj };
  };
}

/** printCertificateSigningRequest: the condition list (Pending when none, Issued once signed). */
function csrCondition(obj: KubeObject): string {
  const types = listAt(obj, 'status.conditions').map((c) => str(at(c, 'type'))).filter(Boolean);
  const shown = types.length ? types.join(',') : 'Pending';
  return at(obj, 'status.certificate') ? `${shown},Issued` : shown;
}

/** kube's printCertificateSigningRequest, as for `-o wide`. */
export const csrPrinter: TablePrinter = {
  cells: {
    Age: age,
    SignerName: (obj) => str(at(obj, 'spec.signerName')),
    Requestor: (obj) => str(at(obj, 'spec.username')),
    RequestedDuration: (obj) => {
      const seconds = at(obj, 'spec.expirationSeconds');
      return typeof seconds === 'number' ? humanDuration(seconds * 1000) : '<none>';
    },
    Condition: csrCondition,
  },
};
