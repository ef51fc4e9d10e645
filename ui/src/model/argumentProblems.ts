// Why edited arguments do not fit a tool's inputSchema, checked with the same validator (and
// JSON Schema dialect) as the Call form; the engine checks them again. The approval dialog's
// tool-call body checks the arguments the person edits with it.

import { formSchema } from "./toolSchemaValidator";

export function argumentProblems(inputSchema: unknown, value: unknown): string[] {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return ["the arguments must be a JSON object"];
  }
  const { schema, validator } = formSchema(inputSchema);
  const { errors, validationError } = validator.rawValidation(schema, value);
  if (validationError !== undefined) return [`the inputSchema cannot be checked: ${validationError.message}`];
  const found = (errors ?? []) as { instancePath?: unknown; message?: unknown }[];
  return found.map((e) => {
    const where = typeof e.instancePath === "string" && e.instancePath !== "" ? e.instancePath : "the arguments";
    const message = typeof e.message === "string" ? e.message : "invalid";
    return `${where}: ${message}`;
  });
}
