import type { RouteDefinition } from '@mesmer/shared/api/contract';
import type {
  ContextConfigDefault,
  FastifyContextConfig,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

/** The Fastify schema of a declaration, so Fastify's zod type provider types request and reply. */
type SchemaOf<R extends RouteDefinition> = {
  params: R extends { params: infer S } ? S : undefined;
  querystring: R extends { query: infer S } ? S : undefined;
  body: R extends { body: infer S } ? S : undefined;
  response: R['responses'];
};

/** A handler of `R`: `req.query`, `req.body` and `req.params` as parsed, the answer as declared. */
export type ContractHandler<R extends RouteDefinition> = RouteHandlerMethod<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  RouteGenericInterface,
  ContextConfigDefault,
  SchemaOf<R>,
  ZodTypeProvider
>;

/**
 * Registers one call of the shared contract (packages/shared/src/api) on `app`, which is mounted
 * under /api: its method, path, schemas and OpenAPI text all come from the declaration. `config`
 * carries what only the server knows about the route, such as its rate limit; `bodyLimit` a body
 * larger than the app's (bytes).
 */
export function registerRoute<R extends RouteDefinition>(
  app: FastifyInstance,
  route: R,
  handler: ContractHandler<R>,
  options: { config?: FastifyContextConfig; bodyLimit?: number } = {},
) {
  app.withTypeProvider<ZodTypeProvider>().route({
    method: route.method,
    url: route.path,
    // Only the parts the route declares: Fastify warns about a schema key that is there but empty.
    schema: Object.fromEntries(
      Object.entries({
        tags: [...route.tags],
        summary: route.summary,
        description: route.description,
        params: route.params,
        querystring: route.query,
        body: route.body,
        response: route.responses,
      }).filter(([, value]) => value !== undefined),
    ),
    config: options.config,
    ...(options.bodyLimit !== undefined && { bodyLimit: options.bodyLimit }),
    handler: handler as RouteHandlerMethod,
  });
}
