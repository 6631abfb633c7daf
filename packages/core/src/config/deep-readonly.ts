/**
 * `Type` with every property and array element readonly, at every depth. Used for the
 * frozen {@link DEFAULT_CONFIG} and for config inputs, so a readonly object (or
 * `DEFAULT_CONFIG` itself) can be passed where a config input is expected.
 *
 * @typeParam Type - the type to make readonly.
 */
export type DeepReadonly<Type> = Type extends readonly (infer Element)[]
  ? readonly DeepReadonly<Element>[]
  : Type extends object
    ? { readonly [Key in keyof Type]: DeepReadonly<Type[Key]> }
    : Type;
