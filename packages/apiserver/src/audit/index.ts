export { microTime, type AuditEvent, type AuditObjectRef } from './event.js';
export { auditLog, type AuditSink } from './middleware.js';
