export { createLogger, LOGGING_FORMATS, type LoggerOptions, type LoggingFormat } from './logger.js';
export { formatKlog } from './klog.js';
export { httpLog, HTTP_LOG_LEVEL } from './httplog.js';
export type { LogFields, LogSink } from './types.js';
