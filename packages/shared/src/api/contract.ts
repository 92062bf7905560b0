import { z } from 'zod';
import type { RouteAddress } from '../routes/address.ts';

/** What a call takes and answers, and its documentation: the part of a route that needs zod. */
export interface RouteSchemas {
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** Every answer by status, errors included; 2xx ones are what the web's `call` resolves to. */
  responses: Readonly<Record<number, z.ZodType>>;
  /** OpenAPI grouping, summary and description (shown at /api/docs). */
  tags: readonly string[];
  summary?: string;
  description?: string;
}

/**
 * One API call, declared once (docs/decisions/015-route-contract.md): its address (routes/<domain>.ts)
 * with its schemas. The server registers it (platform/contract-route.ts), the web calls its address
 * and reads its types from it (lib/api-client.ts `call`), tests enumerate it (`allRoutes` in ./routes.ts).
 * Schemas are zod; every type is inferred from them.
 */
export type RouteDefinition = RouteAddress & RouteSchemas;

/** The call at `address` with its schemas, keeping the literal types of both for inference. */
export function defineRoute<const A extends RouteAddress, const S extends RouteSchemas>(
  address: A,
  schemas: S,
): A & S {
  return { ...address, ...schemas };
}

/** The answer of a 204: no body. */
export const noContent = z.null().describe('No content');

type SchemaOf<R, K extends 'params' | 'query' | 'body'> = R extends { [P in K]: infer S extends z.ZodType }
  ? S
  : undefined;

type SuccessStatus = 200 | 201 | 202 | 204;

/** What a call answers on success: the union of its 2xx response schemas' output. */
export type RouteResponse<R extends RouteDefinition> = {
  [S in keyof R['responses']]: S extends SuccessStatus ? z.output<R['responses'][S]> : never;
}[keyof R['responses']];

/** The query a caller sends: keys optional where the server has a default, values as the server reads them. */
export type RouteQuery<R extends RouteDefinition> =
  SchemaOf<R, 'query'> extends z.ZodType
    ? QueryOf<z.input<SchemaOf<R, 'query'>>, z.output<SchemaOf<R, 'query'>>>
    : undefined;
type QueryOf<In, Out> = { [K in keyof In]: K extends keyof Out ? Out[K] : never };

/** The body a caller sends (before the server's defaults and transforms). */
export type RouteBody<R extends RouteDefinition> =
  SchemaOf<R, 'body'> extends z.ZodType ? z.input<SchemaOf<R, 'body'>> : undefined;

/** Path parameters a caller fills in. */
export type RouteParams<R extends RouteDefinition> =
  SchemaOf<R, 'params'> extends z.ZodType ? z.input<SchemaOf<R, 'params'>> : undefined;
