import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { describe, expect, it } from 'vitest';
import { filterChain } from './filter-chain.js';

/**
 * The same filters as hono layers of their own and as one filterChain layer: every request must get the same answer,
 * and every filter must see the same thing after its `next()`.
 */
function apps(make: (seen: string[]) => MiddlewareHandler[]) {
  const onError = (err: Error, c: Context) => c.text(`error: ${err.message}`, 500);
  const layered = { app: new Hono(), seen: [] as string[] };
  const chained = { app: new Hono(), seen: [] as string[] };
  layered.app.onError(onError);
  chained.app.onError(onError);
  for (const filter of make(layered.seen)) layered.app.use('*', filter);
  chained.app.use('*', filterChain(make(chained.seen), onError));
  for (const { app } of [layered, chained]) {
    app.get('/ok', (c) => c.text('handled'));
    app.get('/throws', () => {
      throw new Error('in the handler');
    });
  }
  return [layered, chained];
}

/** A filter that notes the status it sees after `next()`, and what it was told by an error. */
const observer = (name: string, seen: string[]): MiddlewareHandler => async (c, next) => {
  try {
    await next();
    seen.push(`${name} saw ${c.res.status}`);
  } catch (err) {
    seen.push(`${name} caught ${(err as Error).message}`);
    throw err;
  }
};

describe('filterChain', () => {
  const cases: [string, (seen: string[]) => MiddlewareHandler[]][] = [
    ['filters that pass on', (seen) => [observer('outer', seen), (_c, next) => next(), observer('inner', seen)]],
    ['a filter that answers', (seen) => [observer('outer', seen), async (c) => c.text('refused', 429), observer('never', seen)]],
    ['a synchronous filter that answers', (seen) => [observer('outer', seen), ((c: Context) => Promise.resolve(c.text('gone', 410))) as MiddlewareHandler, observer('never', seen)]],
    ['a filter that throws synchronously', (seen) => [observer('outer', seen), () => { throw new Error('sync'); }, observer('never', seen)]],
    ['a filter that rejects', (seen) => [observer('outer', seen), async () => { throw new Error('async'); }, observer('never', seen)]],
    ['a filter that throws after next', (seen) => [observer('outer', seen), async (_c, next) => { await next(); throw new Error('late'); }, observer('inner', seen)]],
    ['a filter that sets a header after next', (seen) => [observer('outer', seen), async (c, next) => { await next(); c.res.headers.set('x-seen', 'yes'); }]],
    ['a filter that replaces the answer', (seen) => [observer('outer', seen), async (c, next) => { await next(); c.res = new Response('replaced', { status: 203 }); }]],
    ['a filter that throws a non-Error', (seen) => [observer('outer', seen), async () => { throw 'a string'; }]],
  ];
  it.each(cases)('gives the answers hono layers give: %s', async (_name, make) => {
    const [layered, chained] = apps(make);
    for (const path of ['/ok', '/throws', '/missing']) {
      const answers = await Promise.all([layered, chained].map(async ({ app }) => {
        try {
          const res = await app.request(path);
          return { status: res.status, body: await res.text(), seen: res.headers.get('x-seen') };
        } catch (err) {
          return { thrown: String(err) };
        }
      }));
      expect(answers[1], path).toEqual(answers[0]);
    }
    expect(chained.seen).toEqual(layered.seen);
    expect(chained.seen.length).toBeGreaterThan(0);
  });
});
