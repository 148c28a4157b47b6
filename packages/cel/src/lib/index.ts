// kube's CEL libraries as @bufbuild/cel functions.
import { celMethod, CelScalar, type CelFunc } from '@bufbuild/cel';
import { strings } from '@bufbuild/cel/ext';
import { authzLibrary } from './authz.js';
import { formatLibrary } from './format.js';
import { cidrLibrary, ipLibrary } from './ip.js';
import { listsLibrary } from './lists.js';
import { optionalLibrary } from './optional.js';
import { quantityLibrary } from './quantity.js';
import { compileRegex, regexLibrary } from './regex.js';
import { semverLibrary } from './semver.js';
import { setsLibrary } from './sets.js';
import { urlsLibrary } from './urls.js';

/** `matches` with a cache of compiled patterns and kube's `Illegal regex` error (replaces the standard one). */
const matches = celMethod('matches', CelScalar.STRING, [CelScalar.STRING], CelScalar.BOOL, function (pattern) {
  return compileRegex(pattern).matcher(this).find();
});

/** Every library function Kapi adds to CEL's standard library, as kube 1.33's base environment has them. */
export const kubeLibraries: CelFunc[] = [
  ...strings,
  matches,
  ...listsLibrary,
  ...regexLibrary,
  ...urlsLibrary,
  ...quantityLibrary,
  ...ipLibrary,
  ...cidrLibrary,
  ...formatLibrary,
  ...semverLibrary,
  ...setsLibrary,
  ...optionalLibrary,
  ...authzLibrary,
];
