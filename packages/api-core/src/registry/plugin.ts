import type { GroupPlugin } from '@kapi/apiserver';
import { group } from '../generated/index.js';
import { bindingAction } from './binding.js';
import { claimResizeAdmission } from './claim-resize.js';
import { componentStatuses, type ComponentStatusOptions } from './component-status/index.js';
import { configMapStrategy, secretStrategy } from './config-data.js';
import { defaultTolerationSecondsAdmission, type DefaultTolerationSecondsOptions } from './default-toleration-seconds.js';
import { CORE_DEFAULTERS } from './defaulters.js';
import { evictionAction } from './eviction.js';
import { EVENT_FIELD_LABELS, NODE_FIELD_LABELS, POD_FIELD_LABELS, REPLICATION_CONTROLLER_FIELD_LABELS, SECRET_FIELD_LABELS } from './field-labels.js';
import { CORE_PRINTERS } from './printers.js';
import { installServiceAccounts, type ServiceAccountTokenOptions } from './service-accounts/index.js';
import { serviceAccountAdmission } from './service-accounts/admission.js';
import { publishRootCA } from './service-accounts/root-ca.js';
import { limitRangeStrategy } from './limit-range.js';
import { limitRangerAdmission } from './limit-ranger.js';
import { resourceQuotaAdmission } from './quota/admission.js';
import type { ResourceQuotaConfiguration } from './quota/configuration.js';
import { countQuotas } from './quota/controller.js';
import { resourceQuotaStrategy } from './quota/validation.js';
import { createServices, type ServiceOptions } from './service/index.js';
import { podTemplateStrategy, replicationControllerStrategy } from './pod-template-kinds.js';
import { podStrategy, serviceAccountStrategy } from './strategies.js';
import { PERSISTENT_VOLUME_VALIDATED_TYPES, persistentVolumeStrategy } from './persistent-volume.js';
import { persistentVolumeClaimStrategy } from './volumes.js';

export interface CorePluginOptions extends ServiceOptions {
  /** What componentstatuses checks: kube-apiserver's scheduler and controller-manager probes by default. */
  componentStatus?: ComponentStatusOptions;
  /** `--default-not-ready-toleration-seconds` and `--default-unreachable-toleration-seconds` (300 each). */
  defaultTolerationSeconds?: DefaultTolerationSecondsOptions;
  /**
   * Service-account tokens (`--service-account-*`, `--api-audiences`): the serviceaccounts/token subresource, their
   * authenticator and the issuer's discovery documents. Without them, `serviceaccounts/token` is 404 as before.
   */
  serviceAccountTokens?: ServiceAccountTokenOptions;
  /**
   * The CA bundle (PEM) that verifies this server, published as the `kube-root-ca.crt` ConfigMap of every namespace
   * (kube-controller-manager's root CA publisher, `--root-ca-file`); none when undefined.
   */
  rootCA?: string;
  /**
   * The ResourceQuota admission plugin's configuration (an AdmissionConfiguration's `ResourceQuota` entry, read with
   * `parseResourceQuotaConfiguration`): `limitedResources`, what may be used only under a covering quota.
   */
  resourceQuota?: ResourceQuotaConfiguration;
}

/**
 * The core group as a server installs it (`createApiServer({ plugins: [createCorePlugin(), ...] })`): its kinds'
 * strategies, table printers and defaulters, Service cluster IPs and node ports, the `kubernetes` Service, and the
 * pods/eviction, pods/binding and bindings subresources, componentstatuses computed on every read (kube's
 * pkg/registry/core), five of kube's default admission plugins (LimitRanger, ServiceAccount, DefaultTolerationSeconds,
 * PersistentVolumeClaimResize and ResourceQuota) and the quota controller that counts ResourceQuotas' usage, the
 * `default` ServiceAccount of every namespace, its `kube-root-ca.crt` ConfigMap
 * when given the CA, and service-account tokens when configured.
 */
export function createCorePlugin(options: CorePluginOptions = {}): GroupPlugin {
  const services = createServices(options);
  return {
    definition: group,
    strategies: {
      Pod: { ...podStrategy, fieldLabels: POD_FIELD_LABELS },
      Service: services.strategy,
      ServiceAccount: serviceAccountStrategy,
      ConfigMap: configMapStrategy,
      Secret: { ...secretStrategy, fieldLabels: SECRET_FIELD_LABELS },
      Event: { fieldLabels: EVENT_FIELD_LABELS },
      Node: { fieldLabels: NODE_FIELD_LABELS },
      ReplicationController: { ...replicationControllerStrategy, fieldLabels: REPLICATION_CONTROLLER_FIELD_LABELS },
      PodTemplate: podTemplateStrategy,
      PersistentVolume: persistentVolumeStrategy,
      PersistentVolumeClaim: persistentVolumeClaimStrategy,
      LimitRange: limitRangeStrategy,
      ResourceQuota: resourceQuotaStrategy,
    },
    printers: CORE_PRINTERS,
    defaulters: CORE_DEFAULTERS,
    // Pod validation (validatePodSpec, in pods and in every pod template), Service, ResourceQuota and PersistentVolume
    // validation are kube's whole ValidatePodSpec, ValidateService, ValidateResourceQuotaSpec and
    // ValidatePersistentVolumeSpec; a pod's status is judged by kube's ValidatePodStatusUpdate (pod-status.ts), which
    // leaves a missing field at its zero value.
    validatedTypes: ['v1/PodSpec', 'v1/PodStatus', 'v1/ServiceSpec', 'v1/ResourceQuotaSpec', ...PERSISTENT_VOLUME_VALIDATED_TYPES],
    install(host) {
      host.addSubresource({ group: '', resource: 'pods', subresource: 'eviction' }, evictionAction(host));
      host.addSubresource({ group: '', resource: 'pods', subresource: 'binding' }, bindingAction(host));
      host.addSubresource({ group: '', resource: 'bindings' }, bindingAction(host));
      host.addComputedResource({ group: '', resource: 'componentstatuses' }, componentStatuses(host, options.componentStatus));
      services.install(host);
      // In kube's order: LimitRanger, ServiceAccount, DefaultTolerationSeconds.
      host.addAdmission(limitRangerAdmission(host));
      host.addAdmission(serviceAccountAdmission(host));
      host.addAdmission(defaultTolerationSecondsAdmission(options.defaultTolerationSeconds));
      host.addAdmission(claimResizeAdmission(host));
      // ResourceQuota comes last of kube's in-process plugins, after everything that changes what a write uses.
      host.addAdmission(resourceQuotaAdmission(host, options.resourceQuota));
      countQuotas(host);
      installServiceAccounts(host, options.serviceAccountTokens);
      if (options.rootCA) publishRootCA(host, options.rootCA);
    },
  };
}

/** The core group with kube's default service ranges (10.0.0.0/24, node ports 30000-32767). */
export const plugin: GroupPlugin = createCorePlugin();
