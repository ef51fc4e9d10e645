import type { RJSFSchema } from "@rjsf/utils";
import { afterEach, describe, expect, it, vi } from "vitest";

import { InterpretingValidator } from "./schemaValidator";
import { formSchema } from "./toolSchemaValidator";

describe("InterpretingValidator", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("validates without eval or new Function, so the window's CSP needs no 'unsafe-eval'", () => {
    const forbidden = () => {
      throw new Error("code generation is not allowed");
    };
    vi.stubGlobal("eval", forbidden);
    vi.stubGlobal("Function", forbidden);
    const { schema, validator } = formSchema({
      type: "object",
      properties: { path: { type: "string", pattern: "^/" }, count: { type: "integer", minimum: 1 } },
      required: ["path"],
    });
    expect(validator.rawValidation(schema, { path: "/tmp", count: 2 }).errors).toBeUndefined();
    const { errors } = validator.rawValidation<{ instancePath: string; keyword: string }>(schema, { path: "tmp", count: 0 });
    expect(errors?.map((e) => [e.instancePath, e.keyword])).toEqual([
      ["/path", "pattern"],
      ["/count", "minimum"],
    ]);
  });

  it("puts a missing required property on that property, named by its title", () => {
    const { schema, validator } = formSchema({
      type: "object",
      properties: { name: { type: "string", title: "Your name" } },
      required: ["name"],
    });
    const { errors, errorSchema } = validator.validateFormData({}, schema);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.property).toBe("name");
    expect(errors[0]?.message).toBe("must have required property 'Your name'");
    expect(errorSchema.name?.__errors).toEqual(["must have required property 'Your name'"]);
  });

  it("speaks 2020-12 by default and draft-07 when the schema names it", () => {
    const tuple = { type: "array", prefixItems: [{ type: "string" }], items: false };
    const modern = formSchema(tuple);
    expect(modern.validator.rawValidation(modern.schema, ["a"]).errors).toBeUndefined();
    expect(modern.validator.rawValidation(modern.schema, ["a", "b"]).errors).toBeDefined();

    const legacy = formSchema({ $schema: "http://json-schema.org/draft-07/schema#", type: "array", items: [{ type: "string" }], additionalItems: false });
    expect(legacy.validator.rawValidation(legacy.schema, ["a"]).errors).toBeUndefined();
    expect(legacy.validator.rawValidation(legacy.schema, [1]).errors).toBeDefined();
  });

  it("checks a part of a schema against the root's definitions, and a broken schema is a validation error", () => {
    const validator = new InterpretingValidator("2020-12");
    const root: RJSFSchema = { type: "object", $defs: { port: { type: "integer", maximum: 65535 } }, properties: { port: { $ref: "#/$defs/port" } } };
    expect(validator.isValid({ $ref: "#/$defs/port" }, 8080, root)).toBe(true);
    expect(validator.isValid({ $ref: "#/$defs/port" }, 70000, root)).toBe(false);
    const broken = validator.rawValidation({ $ref: "#/$defs/missing" }, 1);
    expect(broken.validationError).toBeInstanceOf(Error);
  });

  it("leaves the schema it was given unchanged", () => {
    const schema: RJSFSchema = { type: "object", properties: { a: { $ref: "#/$defs/a" } }, $defs: { a: { type: "string" } } };
    const before = JSON.stringify(schema);
    new InterpretingValidator("2020-12").rawValidation(schema, { a: 1 });
    expect(JSON.stringify(schema)).toBe(before);
  });
});
