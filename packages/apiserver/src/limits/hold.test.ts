import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { holdUntilAnswered } from './hold.js';

function app(watch: boolean, body: () => Response, released: { count: number }, deadlineMs?: number) {
  const hono = new Hono();
  hono.use('*', (c, next) => {
    if (deadlineMs !== undefined) c.set('deadlineMs' as never, deadlineMs as never);
    return holdUntilAnswered(c, watch, next, () => released.count++);
  });
  hono.get('*', body);
  return hono;
}

const streamed = () => {
  let sent = 0;
  return new Response(
    new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 3) controller.enqueue(new TextEncoder().encode(`slice ${sent}\n`));
        else controller.close();
      },
    }),
  );
};

describe('holdUntilAnswered: a seat is held for the whole answer, as kube holds it for all of ServeHTTP', () => {
  it('gives back the seat of a streamed answer after its last byte', async () => {
    const released = { count: 0 };
    const res = await app(false, streamed, released).request('/list');
    expect(released.count).toBe(0);
    expect(await res.text()).toBe('slice 1\nslice 2\nslice 3\n');
    expect(released.count).toBe(1);
  });

  it('gives it back when the client goes away instead', async () => {
    const released = { count: 0 };
    const res = await app(false, streamed, released).request('/list');
    await res.body!.cancel();
    expect(released.count).toBe(1);
  });

  it('gives it back at once for an answer of known length and a watch; once written for a failure', async () => {
    const released = { count: 0 };
    await app(false, () => new Response('done', { headers: { 'content-length': '4' } }), released).request('/get');
    expect(released.count).toBe(1);
    await app(true, streamed, released).request('/watch');
    expect(released.count).toBe(2);
    const failing = new Hono();
    failing.use('*', (c, next) => holdUntilAnswered(c, false, next, () => released.count++));
    failing.get('*', () => {
      throw new Error('boom');
    });
    const failed = await failing.request('/x');
    expect(failed.status).toBe(500);
    await failed.text();
    expect(released.count).toBe(3);
    // What hono does not turn into an answer (a thrown non-Error) comes back as a rejection: the seat is given back too.
    const odd = new Hono();
    odd.use('*', (c, next) => holdUntilAnswered(c, false, next, () => released.count++));
    odd.get('*', () => {
      throw 'not an Error';
    });
    await expect(odd.request('/odd')).rejects.toBe('not an Error');
    expect(released.count).toBe(4);
  });

  it('does not let a client that never reads keep the seat past the deadline', async () => {
    const released = { count: 0 };
    const res = await app(false, streamed, released, 20).request('/list');
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(released.count).toBe(1);
    // The body's end later does not give the seat back a second time.
    await res.body!.cancel();
    expect(released.count).toBe(1);
  });
});
