/**
 * The most of something in use within the last second (kube's in-flight watermark, which its
 * apiserver_current_inflight_requests reports): `observe` on every change, `read` when scraped. Windows are one
 * second long and roll on use, so an idle server costs nothing; a read covers the current window and the one before.
 */
export function createWatermark(now: () => number = Date.now) {
  let windowStart = now();
  let current = 0;
  let previous = 0;
  const roll = (value: number) => {
    const t = now();
    if (t - windowStart < 1000) return;
    // After more than a second without changes, the window before this one is taken as what is in use now.
    previous = t - windowStart < 2000 ? current : value;
    current = value;
    windowStart = t;
  };
  return {
    observe(value: number) {
      roll(value);
      if (value > current) current = value;
    },
    read(value: number): number {
      roll(value);
      return Math.max(current, previous, value);
    },
  };
}
