// CEL equality (`_==_` of the standard library) for library functions that compare elements.
import { celEnv, isCelError, type CelValue } from '@bufbuild/cel';

let equalsGroup: ReturnType<ReturnType<typeof celEnv>['funcs']['find']>;

/** `a == b` with CEL's semantics (numbers equal across int, uint and double; lists and maps deeply). */
export function celEquals(a: CelValue, b: CelValue): boolean {
  equalsGroup ??= celEnv().funcs.find('_==_');
  const r = equalsGroup?.call(0, undefined, [a, b]);
  return r === true && !isCelError(r);
}
