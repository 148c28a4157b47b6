/** kube's field.ErrorType values, as they appear in StatusCause.reason. */
export type FieldErrorType =
  | 'FieldValueNotFound'
  | 'FieldValueRequired'
  | 'FieldValueDuplicate'
  | 'FieldValueInvalid'
  | 'FieldValueNotSupported'
  | 'FieldValueForbidden'
  | 'FieldValueTooLong'
  | 'FieldValueTooMany'
  | 'FieldValueTypeInvalid'
  | 'InternalError';

/** One validation error at a kube-style field path (`spec.containers[0].name`). */
export interface FieldError {
  type: FieldErrorType;
  field: string;
  message: string;
  badValue?: unknown;
}

/**
 * A precompiled schema validator: types, required fields and enums. Unknown fields are not its concern. On an update
 * it is given the stored object too (in the same version), so that it may ratchet as kube validates custom
 * resources: leave out errors at values the update did not change. Validators of built-in kinds ignore it.
 */
export type ObjectValidator = (obj: unknown, old?: unknown) => FieldError[];

/**
 * The shape of a group's types, for finding and pruning unknown fields. Generated per group.
 * A shape is: `0` a scalar or any leaf, `'*'` free-form JSON kept as is, a type name (string) of an object type,
 * `{a: shape}` an array of shape, `{m: shape}` a map of string to shape, `{u: shapes}` a union whose value takes
 * the one of these shapes that its JSON type fits (apiextensions' JSONSchemaPropsOrArray: a type name for an
 * object, `{a: ...}` for an array).
 */
export type FieldShape = 0 | '*' | string | { a: FieldShape } | { m: FieldShape } | { u: FieldShape[] };

export interface FieldTree {
  /** Object types by name: their known properties, and whether unknown properties are kept. */
  types: Record<
    string,
    {
      props: Record<string, FieldShape>;
      /** Schema defaults of properties, applied when the property is absent. */
      defaults?: Record<string, unknown>;
      /** Properties whose zero value (0, false, "") means unset, as for Go's non-pointer omitempty fields. */
      omitZero?: string[];
      /**
       * Go's zero values of the required scalar properties (Go fields without omitempty): what kube's decoding leaves
       * in a property a request left out. Filled in only inside types a group validates wholly (validatedTypes).
       */
      zeros?: Record<string, 0 | false | ''>;
      /** Properties holding a metav1.Time or MicroTime: parsed and written canonically. */
      times?: Record<string, 'Time' | 'MicroTime'>;
      /** Properties holding a resource.Quantity (`value`) or a map of them (`map`): written canonically. */
      quantities?: Record<string, 'value' | 'map'>;
      /** Properties whose `null` is a value to keep (a custom resource's `nullable: true` fields); others' is dropped. */
      nullable?: string[];
      preserveUnknown?: boolean;
      embeddedResource?: boolean;
    }
  >;
}
