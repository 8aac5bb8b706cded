// Validates bodies against the provider's OpenAPI file (a copy of ../shared/spec/provider-openapi.json
// kept in test/fixtures so the tests run without the shared folder). Where the file defines a shape,
// both what our client sends and what the simulator answers must fit it.
import { readFileSync } from "node:fs";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";

const document = JSON.parse(
  readFileSync(new URL("../fixtures/provider-openapi.json", import.meta.url), "utf8"),
) as { paths: Record<string, Record<string, OpenApiOperation>> };

interface OpenApiOperation {
  requestBody?: { content: Record<string, { schema?: object }> };
  responses: Record<string, { content?: Record<string, { schema?: object }> }>;
}

// The file uses OpenAPI's `example` keyword, which plain JSON Schema does not know: not strict.
const ajv = new Ajv2020({ strict: false, allErrors: true });
ajv.addSchema(document, "provider");

const compiled = new Map<string, ValidateFunction>();

function pointer(...segments: string[]): string {
  return segments.map((segment) => segment.replaceAll("~", "~0").replaceAll("/", "~1")).join("/");
}

function validatorFor(
  path: string,
  method: string,
  part: "request" | "response",
): ValidateFunction | undefined {
  const key = `${method} ${path} ${part}`;
  if (compiled.has(key)) return compiled.get(key);
  const forms = document.paths[path];
  if (!forms) throw new Error(`the provider's OpenAPI file has no operation ${path}`);
  // A form the file does not show (POST getStatusOrder comes from the specification alone).
  const operation = forms[method];
  if (!operation) return undefined;
  const location =
    part === "request"
      ? operation.requestBody?.content["application/json"]?.schema &&
        pointer("paths", path, method, "requestBody", "content", "application/json", "schema")
      : operation.responses["200"]?.content?.["application/json"]?.schema &&
        pointer("paths", path, method, "responses", "200", "content", "application/json", "schema");
  const validate = location ? ajv.compile({ $ref: `provider#/${location}` }) : undefined;
  if (validate) compiled.set(key, validate);
  return validate;
}

/**
 * The problems of `body` against the file's schema for the operation ([] when it fits, or when the file
 * defines no schema there). `operation` is the path's last segment, e.g. "AddOrder".
 */
export function openApiProblems(
  operation: string,
  part: "request" | "response",
  body: unknown,
  method: "get" | "post" = "post",
): string[] {
  const validate = validatorFor(`/${operation}`, method, part);
  if (!validate || validate(body)) return [];
  return (validate.errors ?? []).map((error) => `${error.instancePath || "(root)"} ${error.message}`);
}

/** Whether the file defines a schema for that part of the operation. */
export function openApiDefines(
  operation: string,
  part: "request" | "response",
  method: "get" | "post" = "post",
) {
  return validatorFor(`/${operation}`, method, part) !== undefined;
}
