/**
 * Hand-maintained facts that swagger does not carry: short names and categories as kube-apiserver serves them
 * in discovery, and the columns `kubectl get` shows for each built-in kind (kube's Go table printers,
 * pkg/printers/internalversion/printers.go), expressed as CRD-style jsonPath columns.
 *
 * Kube computes many of its columns in Go (Pod READY is "1/2"); such a column here points at the closest
 * jsonPath and says so in `computed`, which is appended to the description. A column without `description`
 * takes the swagger description of the field its jsonPath names.
 */

import { CLUSTER_TABLES } from './tables/cluster.js';
import type { KindTable } from './tables/common.js';
import { CORE_TABLES } from './tables/core.js';
import { WORKLOADS_TABLES } from './tables/workloads.js';

export type { ColumnSpec, KindTable } from './tables/common.js';

/** By `<group>/<kind>` (`/Pod`, `apps/Deployment`): core/v1 Event and events.k8s.io Event differ. */
export const KUBECTL_TABLE: Record<string, KindTable> = { ...CORE_TABLES, ...WORKLOADS_TABLES, ...CLUSTER_TABLES };
