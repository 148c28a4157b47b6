// Resource use of another process, read from /proc (Linux): CPU seconds and resident memory.
import { readFileSync, writeFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100; // USER_HZ; 100 on every Linux architecture Node runs on

/** utime + stime of a process, in seconds; NaN when it is gone. */
export function cpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may contain spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND; // fields 14 and 15 of proc(5)
  } catch {
    return NaN;
  }
}

/** Current (VmRSS) and peak (VmHWM) resident memory in bytes. */
export function memory(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { rss: kib('VmRSS') * 1024, peak: kib('VmHWM') * 1024 };
  } catch {
    return { rss: NaN, peak: NaN };
  }
}

/** Resets VmHWM to the current RSS (proc(5) clear_refs "5"), so the next peak is this phase's. */
export function resetPeak(pid) {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/**
 * Watches a set of processes through one measured phase: CPU seconds used and peak RSS between start() and
 * stop(). The peak comes from VmHWM after a reset, and from RSS samples every 20 ms where the reset is refused.
 */
export function phaseMeter(pids) {
  let cpu0 = [];
  let t0 = 0;
  let timer;
  const sampled = pids.map(() => 0);
  const canReset = pids.map(() => false);
  return {
    start() {
      pids.forEach((pid, i) => {
        canReset[i] = resetPeak(pid);
        sampled[i] = memory(pid).rss;
      });
      cpu0 = pids.map(cpuSeconds);
      t0 = performance.now();
      timer = setInterval(() => {
        pids.forEach((pid, i) => {
          if (!canReset[i]) sampled[i] = Math.max(sampled[i], memory(pid).rss || 0);
        });
      }, 20);
      timer.unref();
    },
    stop() {
      clearInterval(timer);
      const seconds = (performance.now() - t0) / 1000;
      return pids.map((pid, i) => {
        const mem = memory(pid);
        return {
          pid,
          seconds,
          cpuSeconds: cpuSeconds(pid) - cpu0[i],
          peakRss: canReset[i] ? mem.peak : Math.max(sampled[i], mem.rss || 0),
          rss: mem.rss,
        };
      });
    },
  };
}
