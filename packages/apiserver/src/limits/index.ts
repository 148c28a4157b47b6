export { DEFAULT_MAX_RESOURCE_WRITE_BYTES, limitBody } from './body-limit.js';
export { createInFlightLimiter, DEFAULT_MAX_MUTATING_REQUESTS_INFLIGHT, DEFAULT_MAX_REQUESTS_INFLIGHT, type InFlightLimiter } from './inflight.js';
export { isLongRunning } from './long-running.js';
export { maxBodySize, maxInFlight, requestTimeout, type RequestLimits } from './middleware.js';
export { checkDecoded, checkYamlDepth, MAX_NESTING_DEPTH, MAX_YAML_ALIAS_COUNT } from './nesting.js';
export { scanCbor } from './cbor-scan.js';
export { DEFAULT_REQUEST_TIMEOUT_MS, parseGoDuration } from './timeout.js';
export { memoryBudget, DEFAULT_HEAP_BUDGET_SHARE } from './memory.js';
export { gateRequests, MAX_REQUEST_WAIT_MS, type GateDecision, type GatedRequest, type RequestGate } from './gate.js';
