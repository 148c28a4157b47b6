// The admissionregistration.k8s.io group package. Everything under ./generated comes from schemas/admissionregistration/;
// the hand-written behaviour of its kinds is under ./registry, exported as `plugin` (and `admissionregistrationPlugin`
// for a server that compiles CEL expressions).
export * from './generated/index.js';
export { admissionregistrationPlugin, plugin } from './registry/plugin.js';
export { ADMISSIONREGISTRATION_DEFAULTERS } from './registry/defaults.js';
export type { AdmissionRegistrationOptions, CheckExpression, ExpressionContext, ExpressionKind } from './registry/options.js';
