import { homedir } from 'node:os';
import { join } from 'node:path';
import { setValidatorCache, validatorCacheDir } from '@kapi/apimachinery';

/**
 * Where test processes keep what is costly to make and the same for every process of a user: the test certificates
 * and the compiled validators. `KAPI_TESTING_CACHE_DIR`, by default `~/.cache/kapi-testing` (`$XDG_CACHE_HOME`
 * respected); `off` for no cache at all.
 */
export function testingCacheDir(): string | undefined {
  const dir = process.env.KAPI_TESTING_CACHE_DIR;
  if (dir === 'off') return undefined;
  return dir || join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'kapi-testing');
}

/**
 * Turns on apimachinery's validator cache in the testing cache (`validators/`), unless caching is off or the process
 * already chose a cache of its own. A fresh process then loads each kind's validator instead of compiling it: a
 * server's first start, and the first request of each kind in every later test process, save ajv's compile.
 */
export function useValidatorCache(): void {
  const dir = testingCacheDir();
  if (dir !== undefined && validatorCacheDir() === undefined) setValidatorCache(join(dir, 'validators'));
}
