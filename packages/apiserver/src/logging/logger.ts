import { requireLazily } from '@kapi/apimachinery';
import { formatKlog } from './klog.js';
import type { LogFields, LogSink } from './types.js';

/** kube's `--logging-format` values. */
export const LOGGING_FORMATS = ['text', 'json'] as const;
export type LoggingFormat = (typeof LOGGING_FORMATS)[number];

export interface LoggerOptions {
  /** `--logging-format`: klog text (default) or JSON. */
  format?: LoggingFormat;
  /** kube's -v: lines at this level and below are written. Default 0. */
  verbosity?: number;
  /** Where lines go (kube-apiserver writes its log to stderr). Default process.stderr. */
  stream?: { write(line: string): unknown };
}

/** pino and the streams it brings (about 140 KB of CommonJS), loaded only for the JSON format. */
const pino = requireLazily<typeof import('pino')>(import.meta.url, 'pino');

/** An Error as the JSON log writes it: its message (kube's JSON `err` is the error's string). */
const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * The server's log as kube-apiserver writes it: klog's text format by default, or with `format: 'json'` kube's
 * JSON format through pino, one object per line: `{"ts":1732449600.123,"caller":"httplog","msg":"HTTP","v":3,...}`
 * (`ts` in seconds, `v` the line's verbosity, error lines with `err` and no `v`, as kube's zapr logger writes).
 */
export function createLogger(options: LoggerOptions = {}): LogSink {
  const verbosity = options.verbosity ?? 0;
  const stream = options.stream ?? process.stderr;
  const enabled = (level: number) => level <= verbosity;
  let write: (level: number, message: string, fields?: LogFields) => void;
  if (options.format === 'json') {
    const logger = pino().pino(
      {
        base: undefined,
        messageKey: 'msg',
        // kube's lines start with `ts` (seconds) and carry no level name: pino writes the level formatter's object
        // first, so it gives the timestamp (an empty one would leave a stray comma).
        timestamp: false,
        formatters: { level: () => ({ ts: Date.now() / 1000 }) },
      },
      { write: (line: string) => void stream.write(line) },
    );
    write = (level, message, fields = {}) => {
      const { err, logger: caller, ...rest } = fields;
      const head = { caller: caller ?? 'apiserver', ...(err !== undefined ? { err: errorText(err) } : { v: level }) };
      logger.info({ ...head, ...rest }, message);
    };
  } else {
    write = (level, message, fields) => void stream.write(formatKlog(message, fields));
  }
  const sink: LogSink = (level, message, fields) => {
    if (enabled(level)) write(level, message, fields);
  };
  sink.enabled = enabled;
  return sink;
}
