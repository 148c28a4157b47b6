import { isPromise } from '../maybe.js';
import { newUnauthorized } from '@kapi/apimachinery';
import type { UserInfo } from '../admission/types.js';
import type { AuthenticatedUser, Authenticator, RequestCredentials } from './types.js';

/** kube's anonymous user (`--anonymous-auth`): what a request without credentials runs as. */
export const ANONYMOUS: UserInfo = { username: 'system:anonymous', groups: ['system:unauthenticated'] };

/** The group every authenticated user is in (kube's user.AllAuthenticated). */
export const AUTHENTICATED_GROUP = 'system:authenticated';
const UNAUTHENTICATED_GROUP = 'system:unauthenticated';

/** The 401 kube-apiserver answers for missing or rejected credentials. */
export const unauthorized = () => newUnauthorized('Unauthorized');

/**
 * Client certificates (`--client-ca-file`): the subject's CN is the user name, its O values the groups. Reads only
 * `peerCertificate`, which the transport sets once it verified the certificate against the client CA; one that
 * failed verification (`peerCertificateError`) is rejected (401), as kube's x509 authenticator rejects it. A
 * certificate without CN carries no user (no opinion), as in kube.
 */
export function x509Authenticator(): Authenticator {
  return ({ peerCertificate, peerCertificateError }) => {
    // A certificate that does not chain to the client CA is a rejected credential, not an absent one.
    if (peerCertificateError) throw unauthorized();
    if (!peerCertificate) return undefined;
    const cn = first(peerCertificate.subject.CN);
    if (!cn) return undefined;
    const o = peerCertificate.subject.O;
    return { username: cn, groups: o === undefined ? [] : Array.isArray(o) ? [...o] : [o] };
  };
}

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** One user of a token file, by token. */
export type TokenUsers = Map<string, UserInfo>;

/**
 * Parses kube's `--token-auth-file`: CSV lines `token,user,uid[,"group1,group2"]` (Go's encoding/csv: quoted
 * fields, `""` escapes, blank lines skipped). Lines with fewer than 3 columns are an error; empty tokens are
 * skipped; a repeated token keeps its last line, as kube does.
 */
export function parseTokenFile(csvText: string): TokenUsers {
  const users: TokenUsers = new Map();
  for (const { record, line } of parseCsv(csvText)) {
    if (record.length < 3) throw new Error(`token file must have at least 3 columns (token, user name, user uid), found ${record.length} on line ${line}`);
    const [token, username, uid, groups] = record;
    if (token === '') continue;
    const user: UserInfo = { username, uid, groups: groups === undefined ? [] : groups.split(',').filter((g) => g !== '') };
    users.set(token, user);
  }
  return users;
}

/**
 * Bearer tokens from kube's `--token-auth-file` CSV text (see {@link parseTokenFile}). Reads
 * `Authorization: Bearer <token>`; a token the file does not know is rejected with 401, as kube's bearer token
 * authenticator does ("invalid bearer token").
 */
export function tokenFileAuthenticator(csvText: string): Authenticator {
  const users = parseTokenFile(csvText);
  return ({ headers }) => {
    const token = bearerToken(headers);
    if (token === undefined) return undefined;
    const user = users.get(token);
    if (!user) throw newUnauthorized(INVALID_BEARER_TOKEN);
    return { ...user, groups: [...user.groups] };
  };
}

/** kube's bearertoken authenticator's refusal of a token no token authenticator accepts. */
export const INVALID_BEARER_TOKEN = 'invalid bearer token';

/** The token of an `Authorization: Bearer <token>` header (scheme case-insensitive), as kube's bearertoken reads it. */
export function bearerToken(headers: Headers): string | undefined {
  const auth = (headers.get('authorization') ?? '').trim();
  if (auth === '') return undefined;
  const parts = auth.split(' ');
  if (parts.length < 2 || parts[0].toLowerCase() !== 'bearer' || parts[1] === '') return undefined;
  return parts[1];
}

/**
 * Authenticates a request as kube-apiserver does: each authenticator in order, the first user found wins (a
 * rejection by one does not stop a later one from succeeding); authenticated users get `system:authenticated`.
 * When credentials were rejected, or none were given and anonymous access is off, the answer is 401
 * Unauthorized; otherwise a request without credentials is {@link ANONYMOUS}.
 */
export async function authenticate(chain: readonly Authenticator[], request: RequestCredentials, options: { anonymous: boolean }): Promise<UserInfo> {
  let rejected = false;
  for (const authenticator of chain) {
    try {
      // Awaited only when it is a promise: most authenticators answer at once (no credential of their kind).
      const found = authenticator(request);
      const user = isPromise(found) ? await found : found;
      if (user) return withAuthenticatedGroup(withoutAudiences(user));
    } catch {
      rejected = true;
    }
  }
  if (rejected || !options.anonymous) throw unauthorized();
  return { ...ANONYMOUS, groups: [...ANONYMOUS.groups] };
}

/** The user a request runs as: what a credential was for is the authenticator's business, not the request's. */
function withoutAudiences(user: AuthenticatedUser): UserInfo {
  if (user.audiences === undefined) return user;
  const { audiences: _, ...info } = user;
  return info;
}

/** kube's AuthenticatedGroupAdder: adds `system:authenticated` unless the user already says which it is. */
export function withAuthenticatedGroup(user: UserInfo): UserInfo {
  if (user.groups.includes(AUTHENTICATED_GROUP) || user.groups.includes(UNAUTHENTICATED_GROUP)) return user;
  return { ...user, groups: [...user.groups, AUTHENTICATED_GROUP] };
}

/** Go encoding/csv records (RFC 4180, FieldsPerRecord = -1), each with the line it starts on. */
function* parseCsv(text: string): Generator<{ record: string[]; line: number }> {
  const src = text.replace(/\r\n/g, '\n');
  let i = 0;
  let line = 1;
  while (i < src.length) {
    if (src[i] === '\n') {
      // Go skips empty lines.
      i++;
      line++;
      continue;
    }
    const start = line;
    const record: string[] = [];
    for (;;) {
      let field = '';
      if (src[i] === '"') {
        i++;
        for (;;) {
          if (i >= src.length) throw new Error(`parse error on line ${start}: extraneous or missing " in quoted-field`);
          const ch = src[i];
          if (ch === '"') {
            if (src[i + 1] === '"') {
              field += '"';
              i += 2;
              continue;
            }
            i++;
            break;
          }
          if (ch === '\n') line++;
          field += ch;
          i++;
        }
        if (i < src.length && src[i] !== ',' && src[i] !== '\n') throw new Error(`parse error on line ${line}: extraneous or missing " in quoted-field`);
      } else {
        while (i < src.length && src[i] !== ',' && src[i] !== '\n') {
          if (src[i] === '"') throw new Error(`parse error on line ${line}: bare " in non-quoted-field`);
          field += src[i++];
        }
      }
      record.push(field);
      if (i < src.length && src[i] === ',') {
        i++;
        continue;
      }
      break;
    }
    if (i < src.length && src[i] === '\n') {
      i++;
      line++;
    }
    yield { record, line: start };
  }
}
