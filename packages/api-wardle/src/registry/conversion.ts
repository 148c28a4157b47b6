import type { ConversionHooks } from '../generated/index.js';

/**
 * k8s.io/sample-apiserver's hand-written Flunder conversion (pkg/apis/wardle/v1alpha1/conversion.go): v1alpha1's
 * one `reference` is v1beta1's `flunderReference` or `fischerReference`, as `referenceType` says. What v1alpha1
 * cannot hold (the other reference, or a reference without a type) is kept in the conversion annotation, so a
 * v1beta1 object read through v1alpha1 and written back loses nothing.
 */
export const hooks: ConversionHooks = {
  Flunder: {
    toV1beta1FromV1alpha1(from, to) {
      const reference = from.spec?.reference;
      if (reference === undefined) return;
      const spec = (to.spec ??= {});
      // sample-apiserver assumes referenceType is defaulted (it is, to Flunder): without one, the reference is a flunder's.
      if (from.spec?.referenceType === 'Fischer') spec.fischerReference = reference;
      else spec.flunderReference = reference;
    },
    toV1alpha1FromV1beta1(from, to, ctx) {
      const spec = from.spec;
      if (!spec) return;
      // The reference its type names (a flunder's without a type, as the other way round) is v1alpha1's reference.
      const used = spec.referenceType === 'Fischer' ? 'fischerReference' : 'flunderReference';
      if (spec[used] !== undefined) (to.spec ??= {}).reference = spec[used];
      for (const field of ['flunderReference', 'fischerReference'] as const) {
        if (field !== used && spec[field] !== undefined) ctx.preserve(['spec', field], spec[field]);
      }
    },
  },
};
