/**
 * Key/value pairs of a structured log line (klog's InfoS/ErrorS). `err` makes it an error line (klog's ErrorS);
 * `logger` names the part of the server that wrote it (klog's caller column).
 */
export type LogFields = Record<string, unknown> & { err?: unknown; logger?: string };

/**
 * Where the server's log lines go; `level` follows kube's -v (0 always shown, higher is chattier). A sink may say
 * which levels it keeps (`enabled`), so chatty lines (the HTTP log at 3) cost nothing when they would be dropped.
 */
export interface LogSink {
  (level: number, message: string, fields?: LogFields): void;
  enabled?(level: number): boolean;
}
