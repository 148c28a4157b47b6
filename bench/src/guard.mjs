// The regression guard (`--record[=FILE]`, `--guard[=FILE]`): the ratios of a run to its own baselines, compared
// with a recorded run's. Only ratios, never absolute numbers: both sides of a ratio come from the same minutes on
// the same machine, so they survive a busier or slower machine far better than requests/s do.
import { readFileSync } from 'node:fs';
import { markdownTable } from './report.mjs';

/** A ratio may fall this much below the recorded one (0.2: 20%) before the guard fails. */
export const DEFAULT_TOLERANCE = 0.2;

/**
 * Every ratio a run's results hold, by a stable key: GET vs B1, create vs B2 and B5, LIST (unpaged and paged) vs
 * B3's JSON encode (all higher is better), and scenario 7's update/patch/apply/delete server CPU per op vs create's
 * (lower is better).
 */
export function ratiosOf(results) {
  const B = results.baselines ?? {};
  const b3List = B.B3?.rows?.find((r) => r.object.startsWith('ConfigMapList') && r.format === 'JSON');
  const out = [];
  const add = (key, value, better) => {
    if (Number.isFinite(value)) out.push({ key, value, better });
  };
  const scenarios = new Set(results.scenarios ?? []);
  for (const run of results.runs ?? []) {
    const b = run.backend;
    if (run.kind === 'data') {
      if (scenarios.has('create') && run.create) {
        add(`1 create/${b} vs B2`, run.create.opsPerSec / B.B2?.opsPerSec, 'higher');
        add(`1 create/${b} vs B5`, run.create.opsPerSec / B.B5?.opsPerSec, 'higher');
      }
      if (run.get) add(`2 GET/${b} vs B1`, run.get.opsPerSec / B.B1?.opsPerSec, 'higher');
      for (const paged of ['unpaged', 'paged']) {
        const list = run.list?.[paged];
        if (list && b3List) add(`3 LIST ${paged}/${b} vs B3 JSON encode`, list.bytesPerSecond / (b3List.encodeMBps * 1e6), 'higher');
      }
    }
    if (run.kind === 'write') {
      for (const op of ['update', 'patch', 'apply', 'delete']) add(`7 ${op}/${b} CPU/op vs create`, run[op]?.costVsCreate, 'lower');
    }
  }
  return out;
}

/**
 * The recorded ratios against the current ones. A higher-is-better ratio regresses when it falls more than
 * `tolerance` below the recorded one; a lower-is-better one (a cost) when its inverse does, that is when it
 * rises above recorded / (1 - tolerance). A ratio recorded but missing now (a failed phase) fails too.
 */
export function compareRatios(recorded, current, tolerance = DEFAULT_TOLERANCE) {
  const now = new Map(current.map((r) => [r.key, r]));
  return recorded.map(({ key, value, better }) => {
    const cur = now.get(key)?.value;
    if (!Number.isFinite(cur)) return { key, better, recorded: value, current: undefined, change: undefined, regressed: true };
    const change = cur / value - 1;
    const regressed = better === 'higher' ? cur < value * (1 - tolerance) : cur > value / (1 - tolerance);
    return { key, better, recorded: value, current: cur, change, regressed };
  });
}

export function readRecorded(path) {
  const recorded = JSON.parse(readFileSync(path, 'utf8'));
  if (!recorded.scenarios || !recorded.backends || !recorded.profile) throw new Error(`${path} is not a results file written by pnpm bench --record`);
  return { ...recorded, ratios: recorded.ratios ?? ratiosOf(recorded) };
}

const fmt = (v) => (Number.isFinite(v) ? (v >= 10 ? v.toFixed(1) : v.toPrecision(3)) : '—');

/** The comparison as a Markdown table, one row per ratio. */
export function guardTable(comparison, tolerance) {
  return markdownTable(
    comparison.map((c) => ({
      key: c.key,
      better: c.better === 'higher' ? 'higher' : 'lower',
      recorded: fmt(c.recorded),
      current: fmt(c.current),
      change: Number.isFinite(c.change) ? `${c.change >= 0 ? '+' : ''}${(c.change * 100).toFixed(0)}%` : 'missing',
      verdict: c.regressed ? `✗ regressed (${c.better === 'higher' ? `${Math.round(tolerance * 100)}% lower` : `${Math.round((1 / (1 - tolerance) - 1) * 100)}% higher`} or more)` : '✓',
    })),
    [
      ['key', 'ratio'],
      ['better', 'better'],
      ['recorded', 'recorded'],
      ['current', 'now'],
      ['change', 'change'],
      ['verdict', 'guard'],
    ],
  );
}
