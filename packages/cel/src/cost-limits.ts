// kube's static (estimated) cost limits of CRD validation rules (apiextensions validation.go).
import type { FieldError } from '@kapi/apimachinery';

/** The largest estimated cost of one expression, times how often it can run (StaticEstimatedCostLimit). */
export const STATIC_ESTIMATED_COST_LIMIT = 10_000_000;
/** The largest estimated cost of all rules of a CRD version's schema (StaticEstimatedCRDCostLimit). */
export const STATIC_ESTIMATED_CRD_COST_LIMIT = 100_000_000;

const UINT64_MAX = 18446744073709551615;

/** Go's `%f` (six decimals). */
const goF = (x: number, digits: number) => x.toFixed(digits);

/** kube's getCostErrorMessage. */
export function costErrorMessage(what: string, cost: number, limit: number): string {
  const exceed = Math.min(cost, UINT64_MAX) / limit;
  const f = exceed > 100 ? 'more than 100x' : exceed < 1.5 ? `${goF(exceed, 6)}x` : `${goF(exceed, 1)}x`;
  return `${what} exceeds budget by factor of ${f} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`;
}

/** The total estimated cost of a schema's expressions and the most expensive of them (kube's TotalCost). */
export class CostTotal {
  total = 0;
  private readonly expensive: { field: string; cost: number }[] = [];

  observe(field: string, cost: number): void {
    this.total += cost;
    if (cost < STATIC_ESTIMATED_CRD_COST_LIMIT / 100) return;
    this.expensive.push({ field, cost });
    this.expensive.sort((a, b) => b.cost - a.cost);
    this.expensive.length = Math.min(this.expensive.length, 4);
  }

  /** kube's errors when the total is over the CRD limit: one per most expensive expression, one for the schema. */
  errors(schemaPath: string): FieldError[] {
    if (this.total <= STATIC_ESTIMATED_CRD_COST_LIMIT) return [];
    return [
      ...this.expensive.map((e): FieldError => ({
        type: 'FieldValueForbidden',
        field: e.field,
        message: 'contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema',
      })),
      {
        type: 'FieldValueForbidden',
        field: schemaPath,
        message: costErrorMessage('x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema', this.total, STATIC_ESTIMATED_CRD_COST_LIMIT),
      },
    ];
  }
}
