import { JSONSchema, Schema, SchemaAST as AST } from "effect";
import { PageNumber, PerPageNumber } from "@crown/core";

/** One documented call: the same Effect Schema validates the request and describes it here. */
export interface RouteDoc {
  readonly method: "get" | "post";
  readonly path: string;
  readonly summary: string;
  readonly tag: string;
  readonly auth: boolean;
  readonly body?: Schema.Schema<any, any, never>;
  /** Query parameters the route reads itself (by core's rules), documented as optional. */
  readonly query?: Readonly<Record<string, Schema.Schema<any, any, never>>>;
  readonly bodyType?: "json" | "multipart";
  readonly response?: "json" | "binary" | "pdf" | "event-stream";
}

const registry: RouteDoc[] = [];

/** The paging parameters, read by core's one rule (`pageParam`, `perPageParam`, or the use case's schema). */
export const PAGED = { page: PageNumber } as const;
export const SIZED = { per_page: PerPageNumber } as const;
export const PAGED_WITH_SIZE = { ...PAGED, ...SIZED } as const;

/**
 * JSON Schema has no "undefined": optional fields that also accept undefined (or null) are
 * described by their other members, and their optionality by `required`.
 */
const withoutUndefined = (ast: AST.AST): AST.AST => {
  switch (ast._tag) {
    case "Union": {
      const members = ast.types.filter((t) => t._tag !== "UndefinedKeyword" && t._tag !== "VoidKeyword").map(withoutUndefined);
      return members.length === 1 ? members[0]! : AST.Union.make(members, ast.annotations);
    }
    case "Refinement":
      return withoutUndefined(ast.from);
    case "Transformation":
      return withoutUndefined(ast.from);
    // A rule across fields (core's NameRequired) wraps one struct: describe the struct.
    case "Declaration":
      return ast.typeParameters.length === 1 ? withoutUndefined(ast.typeParameters[0]!) : ast;
    case "TypeLiteral":
      return new AST.TypeLiteral(
        ast.propertySignatures.map((ps) => new AST.PropertySignature(ps.name, withoutUndefined(ps.type), ps.isOptional, ps.isReadonly, ps.annotations)),
        ast.indexSignatures,
        ast.annotations,
      );
    default:
      return ast;
  }
};

const requestSchema = (schema: Schema.Schema<any, any, never>) => {
  try {
    return JSONSchema.make(schema);
  } catch {
    return JSONSchema.make(Schema.make(withoutUndefined(schema.ast)));
  }
};

export const documented = (doc: RouteDoc): RouteDoc => {
  registry.push(doc);
  return doc;
};

const errorSchema = {
  type: "object",
  properties: { message: { type: "string" }, errors: { type: "object", additionalProperties: { type: "array", items: { type: "string" } } } },
  required: ["message"],
};

/** OpenAPI 3.1 from the registered routes; JSON Schema comes from Effect Schema itself. */
export const openApiDocument = (serverUrl: string) => {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of registry) {
    const path = route.path.replace(/:([A-Za-z_]+)(\{[^}]*\})?/g, "{$1}");
    const parameters: Array<Record<string, unknown>> = [...route.path.matchAll(/:([A-Za-z_]+)/g)].map((m) => ({ name: m[1], in: "path", required: true, schema: { type: "string" } }));
    for (const [name, schema] of Object.entries(route.query ?? {})) parameters.push({ name, in: "query", required: false, schema: requestSchema(schema) });
    const op: Record<string, unknown> = {
      summary: route.summary,
      tags: [route.tag],
      ...(parameters.length ? { parameters } : {}),
      ...(route.auth ? { security: [{ bearer: [] }] } : {}),
      responses: {
        "200": route.response === "pdf"
          ? { description: "PDF", content: { "application/pdf": {} } }
          : route.response === "binary"
            ? { description: "Binary file", content: { "application/octet-stream": {} } }
            : route.response === "event-stream"
              ? { description: "Server-Sent Events", content: { "text/event-stream": {} } }
              : { description: "Success", content: { "application/json": { schema: { type: "object", properties: { message: { type: "string" }, results: {} } } } } },
        "422": { description: "Validation failed", content: { "application/json": { schema: errorSchema } } },
        ...(route.auth ? { "401": { description: "Missing, unknown, expired or revoked token", content: { "application/json": { schema: errorSchema } } } } : {}),
        "429": { description: "Rate limited (see Retry-After)" },
      },
    };
    if (route.body) {
      const schema = requestSchema(route.body);
      op.requestBody = {
        required: true,
        content: { [route.bodyType === "multipart" ? "multipart/form-data" : "application/json"]: { schema } },
      };
    }
    (paths[path] ??= {})[route.method] = op;
  }
  return {
    openapi: "3.1.0",
    info: { title: "Crown API", version: "1.0.0", description: "Infant head-shape screening. Envelope, errors and sessions: docs/api/README.md." },
    servers: [{ url: serverUrl }],
    components: { securitySchemes: { bearer: { type: "http", scheme: "bearer" } } },
    paths,
  };
};
