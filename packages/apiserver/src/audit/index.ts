export { auditAnnotate, auditAuthenticated, auditRequestObject, auditResponseObject, type AuditRecord, type AuditResponseStatus } from './context.js';
export { microTime, type AuditEvent, type AuditObjectRef } from './event.js';
export { auditLog, type AuditSink } from './middleware.js';
export {
  AUDIT_LEVELS,
  AUDIT_STAGES,
  evaluatePolicy,
  loadAuditPolicy,
  METADATA_POLICY,
  type AuditDecision,
  type AuditGroupResources,
  type AuditLevel,
  type AuditPolicy,
  type AuditPolicyRule,
  type AuditStage,
} from './policy.js';
