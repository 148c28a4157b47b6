import { fieldDuplicate, fieldForbidden, fieldInvalid, fieldNotSupported, fieldRequired, fieldTooLong, isDNS1123Subdomain, isObj, str, type FieldError, type Obj } from '@kapi/apimachinery';
import { capabilities } from './capabilities.js';
import { containersWithPath } from './pod-containers.js';
import { localDescendingPathErrors } from './pod-paths.js';

// kube 1.33's security context rules (pkg/apis/core/validation): the pod's (validatePodSpecSecurityContext) and each
// container's (ValidateSecurityContext), windowsOptions (validateWindowsSecurityContextOptions), and the OS rules of
// validateOS, validateLinux and validateWindows. Privileged and HostProcess containers are refused unless the
// process's capabilities allow them (kube-apiserver's --allow-privileged, registry/capabilities.ts).

/** Go's math.MaxInt32, the bound of kube's int32 fields. */
export const MAX_INT32 = 2147483647;

/** kube's IsValidUserID / IsValidGroupID on `field`, when the value is set. */
const idErrors = (value: unknown, field: string): FieldError[] =>
  typeof value === 'number' && (value < 0 || value > MAX_INT32) ? [fieldInvalid(field, value, `must be between 0 and ${MAX_INT32}, inclusive`)] : [];

const isSet = (value: unknown) => value !== undefined && value !== null;

const SECCOMP_TYPES = ['Localhost', 'RuntimeDefault', 'Unconfined'];

/** kube's validateSeccompProfileField. */
function seccompErrors(sp: unknown, field: string): FieldError[] {
  if (!isObj(sp)) return [];
  const errs: FieldError[] = [];
  const type = str(sp.type);
  if (type === '') errs.push(fieldRequired(`${field}.type`, 'type is required when seccompProfile is set'));
  else if (!SECCOMP_TYPES.includes(type)) errs.push(fieldNotSupported(`${field}.type`, type, SECCOMP_TYPES));
  if (type === 'Localhost') {
    if (!isSet(sp.localhostProfile)) errs.push(fieldRequired(`${field}.localhostProfile`, 'must be set when seccomp type is Localhost'));
    else errs.push(...localDescendingPathErrors(str(sp.localhostProfile), `${field}.localhostProfile`));
  } else if (isSet(sp.localhostProfile)) {
    errs.push(fieldInvalid(`${field}.localhostProfile`, sp, 'can only be set when seccomp type is Localhost'));
  }
  return errs;
}

const APPARMOR_TYPES = ['Localhost', 'RuntimeDefault', 'Unconfined'];
const MAX_LOCALHOST_PROFILE = 4095; // PATH_MAX - 1

/** kube's ValidateAppArmorProfileField. */
function appArmorErrors(profile: unknown, field: string): FieldError[] {
  if (!isObj(profile)) return [];
  const errs: FieldError[] = [];
  const type = str(profile.type);
  const local = profile.localhostProfile;
  if (type === 'Localhost') {
    if (!isSet(local)) {
      errs.push(fieldRequired(`${field}.localhostProfile`, 'must be set when AppArmor type is Localhost'));
    } else {
      const value = str(local);
      if (value.trim() !== value) errs.push(fieldInvalid(`${field}.localhostProfile`, value, 'must not be padded with whitespace'));
      else if (value === '') errs.push(fieldRequired(`${field}.localhostProfile`, 'must be set when AppArmor type is Localhost'));
      if (bytes(value) > MAX_LOCALHOST_PROFILE) errs.push(fieldTooLong(`${field}.localhostProfile`, MAX_LOCALHOST_PROFILE));
    }
  } else if (type === 'RuntimeDefault' || type === 'Unconfined') {
    if (isSet(local)) errs.push(fieldInvalid(`${field}.localhostProfile`, local, 'can only be set when AppArmor type is Localhost'));
  } else if (type === '') {
    errs.push(fieldRequired(`${field}.type`, 'type is required when appArmorProfile is set'));
  } else {
    errs.push(fieldNotSupported(`${field}.type`, type, APPARMOR_TYPES));
  }
  return errs;
}

const SYSCTL_MAX = 253;
const SYSCTL_PATTERN = '^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[\\./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$';
const sysctlName = new RegExp(SYSCTL_PATTERN);

/** The kernel namespace a sysctl belongs to (kube's utilsysctl.GetNamespace), for the host namespace checks. */
function sysctlNamespace(name: string): 'net' | 'ipc' | undefined {
  // A name whose first separator is a slash uses slashes throughout (net/ipv4/ip_forward).
  const dot = name.indexOf('.');
  const slash = name.indexOf('/');
  const normalized = slash >= 0 && (dot < 0 || slash < dot) ? name.replace(/[./]/g, (c) => (c === '/' ? '.' : '/')) : name;
  if (normalized === 'kernel.sem' || ['kernel.shm', 'kernel.msg', 'fs.mqueue.'].some((p) => normalized.startsWith(p))) return 'ipc';
  if (normalized.startsWith('net.')) return 'net';
  return undefined;
}

/** kube's validateSysctls (the pod's hostNetwork and hostIPC are PodSpec fields in the v1 API). */
function sysctlErrors(spec: Obj, sysctls: unknown[], field: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  sysctls.forEach((s, i) => {
    const name = isObj(s) ? str(s.name) : '';
    const at = `${field}[${i}].name`;
    if (!name) errs.push(fieldRequired(at));
    else if (name.length > SYSCTL_MAX || !sysctlName.test(name)) errs.push(fieldInvalid(at, name, `must have at most ${SYSCTL_MAX} characters and match regex ${SYSCTL_PATTERN}`));
    else if (names.has(name)) errs.push(fieldDuplicate(at, name));
    const ns = sysctlNamespace(name);
    if (spec.hostNetwork === true && ns === 'net') errs.push(fieldInvalid(at, name, "may not be specified when 'hostNetwork' is true"));
    else if (spec.hostIPC === true && ns === 'ipc') errs.push(fieldInvalid(at, name, "may not be specified when 'hostIPC' is true"));
    names.add(name);
  });
  return errs;
}

/** A field that must be one of `supported` when set (kube lists them sorted). */
const enumErrors = (value: unknown, field: string, supported: string[]): FieldError[] =>
  isSet(value) && !supported.includes(str(value)) ? [fieldNotSupported(field, value, supported)] : [];

const GMSA_SPEC_MAX_KIB = 64;
const RUN_AS_DOMAIN_MAX = 256;
const RUN_AS_USER_MAX = 104;
// Go's [[:cntrl:]] is ASCII's control characters; its regexps count runes, hence the `u` flags.
const CONTROL = /[\x00-\x1f\x7f]/;
const NETBIOS_DOMAIN = /^[^\\/:*?"<>|.][^\\/:*?"<>|]{0,14}$/u;
const DNS_DOMAIN = /^[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;
const USER_BAD_CHARS = /["/\\:;|=,+*?<>@[\]]/;
const USER_DOTS_SPACES = /^[. ]+$/;
/** Go's len(): a string's length in UTF-8 bytes. */
const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

/**
 * kube's validateWindowsSecurityContextOptions: the GMSA credential spec's name (a DNS subdomain) and size, and
 * `runAsUserName` as Windows takes it (`DOMAIN\user`: a NetBIOS or DNS domain, a user of at most 104 bytes without
 * control characters or any of "/\:;|=,+*?<>@[]).
 */
function windowsOptionsErrors(options: unknown, field: string): FieldError[] {
  if (!isObj(options)) return [];
  const errs: FieldError[] = [];
  if (typeof options.gmsaCredentialSpecName === 'string') {
    for (const msg of isDNS1123Subdomain(options.gmsaCredentialSpecName)) errs.push(fieldInvalid(`${field}.gmsaCredentialSpecName`, options.gmsaCredentialSpecName, msg));
  }
  const spec = options.gmsaCredentialSpec;
  if (typeof spec === 'string') {
    if (spec === '') errs.push(fieldInvalid(`${field}.gmsaCredentialSpec`, spec, 'gmsaCredentialSpec cannot be an empty string'));
    else if (bytes(spec) > GMSA_SPEC_MAX_KIB * 1024) errs.push(fieldInvalid(`${field}.gmsaCredentialSpec`, spec, `gmsaCredentialSpec size must be under ${GMSA_SPEC_MAX_KIB} KiB`));
  }
  const name = options.runAsUserName;
  if (typeof name !== 'string') return errs;
  const invalid = (message: string) => errs.push(fieldInvalid(`${field}.runAsUserName`, name, message));
  const parts = name.split('\\');
  if (name === '') invalid('runAsUserName cannot be an empty string');
  else if (CONTROL.test(name)) invalid('runAsUserName cannot contain control characters');
  else if (parts.length > 2) invalid('runAsUserName cannot contain more than one backslash');
  else {
    const [domain, user] = parts.length === 1 ? ['', parts[0]!] : [parts[0]!, parts[1]!];
    if (bytes(domain) >= RUN_AS_DOMAIN_MAX) invalid(`runAsUserName's Domain length must be under ${RUN_AS_DOMAIN_MAX} characters`);
    if (parts.length === 2 && !NETBIOS_DOMAIN.test(domain) && !DNS_DOMAIN.test(domain)) invalid("runAsUserName's Domain doesn't match the NetBios nor the DNS format");
    if (user === '') invalid("runAsUserName's User cannot be empty");
    else if (bytes(user) > RUN_AS_USER_MAX) invalid(`runAsUserName's User length must not be longer than ${RUN_AS_USER_MAX} characters`);
    if (USER_DOTS_SPACES.test(user)) invalid("runAsUserName's User cannot contain only periods or spaces");
    if (USER_BAD_CHARS.test(user)) invalid('runAsUserName\'s User cannot contain the following characters: "/\\:;|=,+*?<>@[]');
  }
  return errs;
}

/**
 * kube's validatePodSpecSecurityContext: IDs in range, no shared process namespace with hostPID (reported under
 * `securityContext`, where kube's internal type keeps both), sysctls, fsGroupChangePolicy, seccomp and AppArmor
 * profiles, windowsOptions, supplementalGroupsPolicy and seLinuxChangePolicy.
 */
export function podSecurityContextErrors(spec: Obj, field: string): FieldError[] {
  const sc = spec.securityContext;
  if (!isObj(sc)) return [];
  const errs = [...idErrors(sc.fsGroup, `${field}.fsGroup`), ...idErrors(sc.runAsUser, `${field}.runAsUser`), ...idErrors(sc.runAsGroup, `${field}.runAsGroup`)];
  (Array.isArray(sc.supplementalGroups) ? sc.supplementalGroups : []).forEach((g, i) => errs.push(...idErrors(g, `${field}.supplementalGroups[${i}]`)));
  if (spec.shareProcessNamespace === true && spec.hostPID === true) {
    errs.push(fieldInvalid(`${field}.shareProcessNamespace`, true, 'ShareProcessNamespace and HostPID cannot both be enabled'));
  }
  if (Array.isArray(sc.sysctls) && sc.sysctls.length) errs.push(...sysctlErrors(spec, sc.sysctls, `${field}.sysctls`));
  errs.push(...enumErrors(sc.fsGroupChangePolicy, `${field}.fsGroupChangePolicy`, ['Always', 'OnRootMismatch']));
  errs.push(...seccompErrors(sc.seccompProfile, `${field}.seccompProfile`));
  errs.push(...windowsOptionsErrors(sc.windowsOptions, `${field}.windowsOptions`));
  errs.push(...appArmorErrors(sc.appArmorProfile, `${field}.appArmorProfile`));
  errs.push(...enumErrors(sc.supplementalGroupsPolicy, `${field}.supplementalGroupsPolicy`, ['Merge', 'Strict']));
  errs.push(...enumErrors(sc.seLinuxChangePolicy, `${field}.seLinuxChangePolicy`, ['MountOption', 'Recursive']));
  return errs;
}

/**
 * kube's ValidateSecurityContext (a container's): `privileged` only where the process's capabilities allow it, IDs
 * in range, the proc mount (Unmasked needs `hostUsers: false`), the seccomp profile, allowPrivilegeEscalation false
 * against privileged or CAP_SYS_ADMIN, windowsOptions, and the AppArmor profile.
 */
export function containerSecurityContextErrors(sc: unknown, field: string, hostUsers = true): FieldError[] {
  if (!isObj(sc)) return [];
  const errs: FieldError[] = [];
  if (sc.privileged === true && !capabilities().allowPrivileged) errs.push(fieldForbidden(`${field}.privileged`, 'disallowed by cluster policy'));
  errs.push(...idErrors(sc.runAsUser, `${field}.runAsUser`), ...idErrors(sc.runAsGroup, `${field}.runAsGroup`));
  if (isSet(sc.procMount)) {
    errs.push(...enumErrors(sc.procMount, `${field}.procMount`, ['Default', 'Unmasked']));
    if (hostUsers && sc.procMount === 'Unmasked') errs.push(fieldInvalid(`${field}.procMount`, sc.procMount, '`hostUsers` must be false to use `Unmasked`'));
  }
  errs.push(...seccompErrors(sc.seccompProfile, `${field}.seccompProfile`));
  if (sc.allowPrivilegeEscalation === false) {
    if (sc.privileged === true) errs.push(fieldInvalid(field, sc, 'cannot set `allowPrivilegeEscalation` to false and `privileged` to true'));
    const added = isObj(sc.capabilities) && Array.isArray(sc.capabilities.add) ? sc.capabilities.add : [];
    for (const cap of added) {
      if (cap === 'CAP_SYS_ADMIN') errs.push(fieldInvalid(field, sc, 'cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN'));
    }
  }
  errs.push(...windowsOptionsErrors(sc.windowsOptions, `${field}.windowsOptions`));
  errs.push(...appArmorErrors(sc.appArmorProfile, `${field}.appArmorProfile`));
  return errs;
}

const LINUX_ONLY_POD = ['appArmorProfile', 'seLinuxOptions', 'seccompProfile', 'fsGroup', 'fsGroupChangePolicy', 'sysctls', 'runAsUser', 'runAsGroup', 'supplementalGroups', 'supplementalGroupsPolicy', 'seLinuxChangePolicy'];
const LINUX_ONLY_CONTAINER = ['appArmorProfile', 'seLinuxOptions', 'seccompProfile', 'capabilities', 'readOnlyRootFilesystem', 'privileged', 'allowPrivilegeEscalation', 'procMount', 'runAsUser', 'runAsGroup'];

/** kube's validateWindows: what a Windows pod may not set. */
function windowsErrors(spec: Obj, field: string): FieldError[] {
  const errs: FieldError[] = [];
  const forbidden = (at: string) => errs.push(fieldForbidden(at, 'cannot be set for a windows pod'));
  const sc = isObj(spec.securityContext) ? spec.securityContext : undefined;
  if (sc) {
    // kube's order, with the namespace fields (PodSpec fields in the v1 API) where its internal type has them.
    for (const name of LINUX_ONLY_POD.slice(0, 2)) if (isSet(sc[name])) forbidden(`${field}.securityContext.${name}`);
    if (isSet(spec.hostUsers)) forbidden(`${field}.hostUsers`);
    if (spec.hostPID === true) forbidden(`${field}.hostPID`);
    if (spec.hostIPC === true) forbidden(`${field}.hostIPC`);
    for (const name of LINUX_ONLY_POD.slice(2, 6)) {
      if (isSet(sc[name]) && !(name === 'sysctls' && Array.isArray(sc.sysctls) && sc.sysctls.length === 0)) forbidden(`${field}.securityContext.${name}`);
    }
    if (isSet(spec.shareProcessNamespace)) forbidden(`${field}.shareProcessNamespace`);
    for (const name of LINUX_ONLY_POD.slice(6)) if (isSet(sc[name])) forbidden(`${field}.securityContext.${name}`);
  }
  for (const [c, at] of containersWithPath(spec, field)) {
    if (!isObj(c.securityContext)) continue;
    for (const name of LINUX_ONLY_CONTAINER) if (isSet(c.securityContext[name])) forbidden(`${at}.securityContext.${name}`);
  }
  return errs;
}

/** kube's validateLinux: no Windows options on a Linux pod. */
function linuxErrors(spec: Obj, field: string): FieldError[] {
  const errs: FieldError[] = [];
  const forbidden = (at: string) => errs.push(fieldForbidden(at, 'windows options cannot be set for a linux pod'));
  if (isObj(spec.securityContext) && isSet(spec.securityContext.windowsOptions)) forbidden(`${field}.securityContext.windowsOptions`);
  for (const [c, at] of containersWithPath(spec, field)) {
    if (isObj(c.securityContext) && isSet(c.securityContext.windowsOptions)) forbidden(`${at}.securityContext.windowsOptions`);
  }
  return errs;
}

/** kube's validateOS, then validateLinux or validateWindows for the OS named. */
export function osErrors(spec: Obj, field: string): FieldError[] {
  if (!isObj(spec.os)) return [];
  const name = str(spec.os.name);
  if (!name) return [fieldRequired(`${field}.os.name`, 'cannot be empty')];
  if (name === 'linux') return linuxErrors(spec, field);
  if (name === 'windows') return windowsErrors(spec, field);
  return [fieldNotSupported(`${field}.os`, name, ['linux', 'windows'])];
}

/**
 * kube's validateWindowsHostProcessPod: a pod's containers are all HostProcess containers or none (a container's own
 * `windowsOptions.hostProcess`, else the pod's), agree with the pod's when both say, and run on the host network;
 * like privileged containers, they are refused unless the process's capabilities allow them (`--allow-privileged`).
 */
export function hostProcessErrors(spec: Obj, field: string): FieldError[] {
  const errs: FieldError[] = [];
  const podOptions = isObj(spec.securityContext) && isObj(spec.securityContext.windowsOptions) ? spec.securityContext.windowsOptions : {};
  const podHostProcess = typeof podOptions.hostProcess === 'boolean' ? podOptions.hostProcess : undefined;
  let containers = 0;
  let hostProcess = 0;
  for (const [c, at] of containersWithPath(spec, field)) {
    containers++;
    const options = isObj(c.securityContext) && isObj(c.securityContext.windowsOptions) ? c.securityContext.windowsOptions : {};
    const own = typeof options.hostProcess === 'boolean' ? options.hostProcess : undefined;
    if (podHostProcess !== undefined && own !== undefined && own !== podHostProcess) {
      errs.push(fieldInvalid(`${at}.securityContext.windowsOptions.hostProcess`, own, `pod hostProcess value must be identical if both are specified, was ${podHostProcess}`));
    }
    if (own === true || (own === undefined && podHostProcess === true)) hostProcess++;
  }
  if (hostProcess > 0) {
    if (hostProcess !== containers) errs.push(fieldInvalid(field, '', 'If pod contains any hostProcess containers then all containers must be HostProcess containers'));
    if (spec.hostNetwork !== true) errs.push(fieldInvalid(`${field}.hostNetwork`, false, 'hostNetwork must be true if pod contains any hostProcess containers'));
    if (!capabilities().allowPrivileged) errs.push(fieldForbidden(field, 'hostProcess containers are disallowed by cluster policy'));
  }
  return errs;
}
