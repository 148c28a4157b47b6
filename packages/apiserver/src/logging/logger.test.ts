import { describe, expect, it } from 'vitest';
import { createLogger } from './logger.js';
import { formatKlog } from './klog.js';

const capture = (format: 'text' | 'json', verbosity: number) => {
  const lines: string[] = [];
  const log = createLogger({ format, verbosity, stream: { write: (line: string) => lines.push(line) } });
  return { log, lines };
};

// klog's header: severity, MMDD, hh:mm:ss.uuuuuu, the thread (process) ID in 7 columns, file:line].
const KLOG = /^([IE])(\d{4}) (\d{2}:\d{2}:\d{2}\.\d{6}) {1,7}(\d+) ([^ \]]+):(\d+)\] (.*)\n$/;

describe('klog text format', () => {
  it('writes kube-apiserver\'s header, the quoted message and key="value" pairs', () => {
    const line = formatKlog('HTTP', { logger: 'httplog', verb: 'GET', URI: '/api?x="1"', resp: 200, ok: true }, new Date(Date.UTC(2026, 10, 4, 3, 2, 1, 45)), 42);
    expect(line).toBe('I1104 03:02:01.045000      42 httplog:0] "HTTP" verb="GET" URI="/api?x=\\"1\\"" resp=200 ok=true\n');
    expect(KLOG.exec(line)?.slice(1, 7)).toEqual(['I', '1104', '03:02:01.045000', '42', 'httplog', '0']);
  });

  it('marks error lines E and puts err first, as ErrorS does', () => {
    const line = formatKlog('storage failed', { key: 'k', err: new Error('connection refused\nagain') });
    expect(line).toMatch(KLOG);
    expect(line.startsWith('E')).toBe(true);
    expect(line).toContain('] "storage failed" err="connection refused\\nagain" key="k"\n');
  });

  it('keeps only the lines at or below -v', () => {
    const { log, lines } = capture('text', 2);
    log(0, 'zero');
    log(2, 'two');
    log(3, 'three');
    expect(lines.map((l) => KLOG.exec(l)?.[7])).toEqual(['"zero"', '"two"']);
    expect(log.enabled?.(2)).toBe(true);
    expect(log.enabled?.(3)).toBe(false);
  });
});

describe('JSON format', () => {
  it('writes one JSON object per line as kube\'s zapr logger does', () => {
    const { log, lines } = capture('json', 4);
    log(3, 'HTTP', { logger: 'httplog', verb: 'LIST', resp: 200 });
    log(0, 'failed', { err: new Error('boom'), resource: 'pods' });
    log(5, 'too chatty');
    expect(lines).toHaveLength(2);
    const [http, failed] = lines.map((l) => {
      expect(l.endsWith('\n')).toBe(true);
      return JSON.parse(l);
    });
    expect(http).toEqual({ ts: expect.any(Number), caller: 'httplog', v: 3, verb: 'LIST', resp: 200, msg: 'HTTP' });
    expect(Math.abs(http.ts - Date.now() / 1000)).toBeLessThan(60);
    expect(failed).toEqual({ ts: expect.any(Number), caller: 'apiserver', err: 'boom', resource: 'pods', msg: 'failed' });
  });
});
