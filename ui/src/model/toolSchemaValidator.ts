// The validator for a tool's input form (and an elicitation's). MCP's default JSON Schema
// dialect is 2020-12; a schema that names draft-07 (or 06) in `$schema` is checked as draft-07,
// and any other named dialect as 2020-12 without the name. The validator interprets schemas
// (see schemaValidator.ts): nothing is compiled, so the window's CSP has no 'unsafe-eval'.

import type { RJSFSchema, ValidatorType } from "@rjsf/utils";

import { InterpretingValidator } from "./schemaValidator";

const draft2020 = new InterpretingValidator("2020-12");
const draft07 = new InterpretingValidator("7");

const DRAFT_07 = /^https?:\/\/json-schema\.org\/draft-0[67]\/schema#?$/;
const DRAFT_2020 = /^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/;

export type FormSchema = { schema: RJSFSchema; validator: ValidatorType };

/** The schema to build the form from, and the validator that speaks its dialect. */
export function formSchema(inputSchema: unknown): FormSchema {
  const schema: RJSFSchema =
    typeof inputSchema === "object" && inputSchema !== null && !Array.isArray(inputSchema)
      ? inputSchema
      : { type: "object" };
  const dialect = schema.$schema;
  if (dialect === undefined || DRAFT_2020.test(dialect)) return { schema, validator: draft2020 };
  if (DRAFT_07.test(dialect)) return { schema, validator: draft07 };
  const rest = { ...schema };
  delete rest.$schema;
  return { schema: rest, validator: draft2020 };
}
