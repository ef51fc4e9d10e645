// A JSON Schema validator for the generated forms that interprets schemas instead of compiling
// them to JavaScript (`@cfworker/json-schema`), so the window's Content-Security-Policy needs no
// 'unsafe-eval'. It implements rjsf's `ValidatorType`: errors are reported in the shape rjsf's
// own error processing expects (keyword, instancePath, schemaPath, params), and that processing
// (titles in messages, the error schema, custom validation) is rjsf's own. The schemas' patterns
// run on a linear-time engine (see linearRegExp.ts), so a server's pattern cannot freeze the
// window.

import { Validator, type OutputUnit, type Schema, type SchemaDraft } from "@cfworker/json-schema";
import type { CustomValidator, ErrorTransformer, RJSFSchema, UiSchema, ValidationData, ValidatorType } from "@rjsf/utils";
import processRawValidationErrors from "@rjsf/validator-ajv8/lib/processRawValidationErrors.js";

import { withLinearRegExp } from "./linearRegExp";

/** One error, shaped as rjsf's processing of raw errors reads them. */
export type RawError = {
  keyword: string;
  instancePath: string;
  schemaPath: string;
  params: Record<string, string>;
  message: string;
};

/** Keywords that only say a subschema failed; the subschema's own errors say how. */
const UMBRELLAS = new Set(["properties", "items", "prefixItems", "allOf", "$ref", "$recursiveRef", "$dynamicRef", "dependentSchemas", "patternProperties", "unevaluatedProperties", "unevaluatedItems", "additionalItems", "contains", "if", "then", "else"]);

/** The most validators kept for schemas seen; older ones are built again when needed. */
const MAX_KEPT = 64;

/** "#/a/b" → "/a/b", as Ajv writes instance paths. */
function pointer(location: string): string {
  return location.startsWith("#") ? location.slice(1) : location;
}

/** Ajv's wording for the commonest errors, so messages read as they always did. */
function message(unit: OutputUnit): { message: string; params: Record<string, string> } {
  const missing = /required property "(.*)"\.$/.exec(unit.error)?.[1];
  if (unit.keyword === "required" && missing !== undefined) {
    return { message: `must have required property '${missing}'`, params: { missingProperty: missing } };
  }
  const type = /Expected "(.*)"\.$/.exec(unit.error)?.[1];
  if (unit.keyword === "type" && type !== undefined) return { message: `must be ${type.split('", "').join(",")}`, params: {} };
  if (unit.keyword === "enum") return { message: "must be equal to one of the allowed values", params: {} };
  if (unit.keyword === "const") return { message: "must be equal to constant", params: {} };
  if (unit.keyword === "format") return { message: unit.error.replace(/^String does not match/, "must match"), params: {} };
  if (unit.keyword === "pattern") return { message: "must match the pattern", params: {} };
  return { message: unit.error, params: {} };
}

/** The leaf errors of a validation, shaped for rjsf. */
export function rawErrors(units: OutputUnit[]): RawError[] {
  return units
    .filter((unit) => !UMBRELLAS.has(unit.keyword))
    .map((unit) => ({
      keyword: unit.keyword,
      instancePath: pointer(unit.instanceLocation),
      schemaPath: unit.keywordLocation,
      ...message(unit),
    }));
}

/** rjsf's `ValidatorType` for one JSON Schema dialect. */
export class InterpretingValidator implements ValidatorType {
  private readonly kept = new Map<string, Validator>();

  constructor(private readonly draft: SchemaDraft) {}

  /** A validator for `schema`, kept by its text (the schema is copied: the library annotates it). */
  private validatorFor(schema: RJSFSchema | boolean): Validator {
    const key = JSON.stringify(schema);
    const found = this.kept.get(key);
    if (found) return found;
    const made = new Validator(structuredClone(schema) as Schema | boolean, this.draft, false);
    if (this.kept.size >= MAX_KEPT) this.kept.clear();
    this.kept.set(key, made);
    return made;
  }

  rawValidation<Result = RawError>(schema: RJSFSchema, formData?: unknown): { errors?: Result[]; validationError?: Error } {
    try {
      const validator = this.validatorFor(schema);
      const result = withLinearRegExp(() => validator.validate(formData));
      if (result.valid) return {};
      return { errors: rawErrors(result.errors) as Result[] };
    } catch (e) {
      return { validationError: e instanceof Error ? e : new Error(String(e)) };
    }
  }

  validateFormData(
    formData: unknown,
    schema: RJSFSchema,
    customValidate?: CustomValidator,
    transformErrors?: ErrorTransformer,
    uiSchema?: UiSchema,
  ): ValidationData<unknown> {
    const raw = this.rawValidation(schema, formData);
    // rjsf's processing reads `parentSchema` only for titles, which `schema` gives instead.
    return processRawValidationErrors(this, raw as never, formData, schema, customValidate, transformErrors, uiSchema);
  }

  /** Whether `formData` fits `schema`, a part of `rootSchema` whose `$ref`s point into it. */
  isValid(schema: RJSFSchema, formData: unknown, rootSchema: RJSFSchema): boolean {
    const withDefinitions: RJSFSchema = { ...schema };
    if (rootSchema.$defs !== undefined && withDefinitions.$defs === undefined) withDefinitions.$defs = rootSchema.$defs;
    if (rootSchema.definitions !== undefined && withDefinitions.definitions === undefined) {
      withDefinitions.definitions = rootSchema.definitions;
    }
    try {
      const validator = this.validatorFor(withDefinitions);
      return withLinearRegExp(() => validator.validate(formData).valid);
    } catch {
      return false;
    }
  }

  reset(): void {
    this.kept.clear();
  }
}
