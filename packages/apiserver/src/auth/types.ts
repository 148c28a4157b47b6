import type { X509Certificate } from 'node:crypto';
import type { UserInfo } from '../admission/types.js';

/** The part of a verified TLS client certificate authentication reads (node's tls PeerCertificate). */
export interface PeerCertificate {
  subject: { CN?: string; O?: string | string[] };
}

/** What authenticators see of a request. */
export interface RequestCredentials {
  headers: Headers;
  /** The client certificate, present only when the transport verified it against the client CA. */
  peerCertificate?: PeerCertificate;
  /** Why a client certificate the client presented did not verify against the client CA (kube answers 401). */
  peerCertificateError?: string;
  /**
   * The certificates the client presented (leaf first, then the intermediates it sent), not verified by the
   * transport. Authenticators that trust their own CA (delegated client certificates, the front proxy's request
   * headers) verify the chain themselves; the others ignore it.
   */
  peerCertificateChain?: readonly X509Certificate[];
  /**
   * The audiences the credential must be for (a TokenReview's `spec.audiences`, kube's authenticator.WithAudiences);
   * undefined: the server's own API audiences. Authenticators whose credentials have no audience ignore it.
   */
  audiences?: readonly string[];
}

/**
 * One authentication method (kube's authenticator.Request). Returns the user, or undefined when the request
 * carries no credential this method understands. Throws a 401 StatusError for a credential it rejects.
 */
export type Authenticator = (request: RequestCredentials) => AuthenticatedUser | undefined | Promise<AuthenticatedUser | undefined>;

/** An authenticated user; `audiences`: those of the credential's that matched (audience-bound tokens only). */
export interface AuthenticatedUser extends UserInfo {
  audiences?: string[];
}

/** kube's authorizer.Attributes: who does what to which resource (or non-resource path). */
export interface AuthorizationAttributes {
  user: UserInfo;
  verb: string;
  resourceRequest: boolean;
  /** The URL path, for non-resource requests (`/healthz`, `/api`, `/openapi/v3`). */
  path: string;
  apiGroup: string;
  apiVersion: string;
  resource: string;
  subresource: string;
  namespace: string;
  name: string;
}

/** kube's authorizer decisions: an authorizer with no opinion lets the next one decide. */
export interface Decision {
  decision: 'allow' | 'deny' | 'no-opinion';
  reason?: string;
  /**
   * An authorizer failed while deciding (kube's evaluation error); set by the union for authorizers that threw.
   * A request that is not allowed and has one is answered 500, as kube's authorization filter does.
   */
  evaluationError?: string;
}

/** The rules a user has in a namespace, for SelfSubjectRulesReview (authorization.k8s.io/v1 shapes). */
export interface SubjectRules {
  resourceRules: { verbs: string[]; apiGroups?: string[]; resources?: string[]; resourceNames?: string[] }[];
  nonResourceRules: { verbs: string[]; nonResourceURLs?: string[] }[];
  incomplete: boolean;
  evaluationError?: string;
}

/** One authorization mode (`--authorization-mode`), evaluated in order like kube's union authorizer. */
export interface Authorizer {
  name: string;
  authorize(attributes: AuthorizationAttributes): Decision | Promise<Decision>;
  /** The rules the user has in `namespace` (SelfSubjectRulesReview). */
  rulesFor(user: UserInfo, namespace: string): SubjectRules | Promise<SubjectRules>;
}
