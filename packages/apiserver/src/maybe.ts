/** A value now, or a promise of it: code that gets one stays synchronous when it is not a promise. */
export type Maybe<T> = T | Promise<T>;

/** Whether a value is a promise (any thenable, as `await` treats it). */
export const isPromise = <T>(value: Maybe<T>): value is Promise<T> => typeof (value as { then?: unknown } | null)?.then === 'function';

/** Applies `f` to a value that may be a promise, staying synchronous when it is not. */
export const andThen = <T, U>(value: Maybe<T>, f: (v: T) => U): Maybe<U> => (isPromise(value) ? value.then(f) : f(value));
