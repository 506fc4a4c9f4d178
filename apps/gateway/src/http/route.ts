import { applyDecorators, createParamDecorator, HttpCode, SetMetadata, type ExecutionContext } from '@nestjs/common';
import { ApiBody, ApiQuery, ApiResponse } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { errorBodySchema } from '@lv/contracts';
import { apiSchemaRef, openApiSchema } from './api-schemas.js';
import { parseBody } from './body.js';

/** How a route turns its body or query into the schema's output, refusing it with VALIDATION_FAILED (400). */
export type InputParser = <S extends z.ZodType>(schema: S, input: unknown) => z.output<S>;

/** An error status's meaning; its body is always an ErrorBody. */
export type ErrorReplies = Readonly<Record<number, string>>;

/** A reply schema, or `[schema]` for a JSON array of it. */
export type ReplySchema = z.ZodType | readonly [z.ZodType];

/**
 * What one route takes and answers, declared once: @RouteBody() and @RouteQuery() validate with its
 * schemas, the document (openapi.ts) is generated from it, and `status` is the status it answers with.
 */
export interface RouteDeclaration {
  /** The JSON body, validated for @RouteBody() (the document shows what a client sends: the schema's input side). */
  readonly body?: z.ZodType;
  /** false when the route takes no body as well (validated as `{}`; the document marks the body optional). */
  readonly bodyRequired?: boolean;
  /** The query string's fields, validated for @RouteQuery() and documented one parameter each. */
  readonly query?: z.ZodObject;
  /** What a query parameter means, by name, for the document. */
  readonly queryDescriptions?: Readonly<Record<string, string>>;
  /** The validation: parseBody by default; the access pages' parseAccessBody repeats the first field's words as the message. */
  readonly parse?: InputParser;
  /** The JSON reply: usually the RPC declaration's reply schema (`LettersRpc.get.reply`). */
  readonly reply?: ReplySchema;
  /** The success status, sent by the route too (default 200). */
  readonly status?: 200 | 201 | 204;
  /** What the success reply means. */
  readonly description?: string;
  /** The error statuses this route can answer with, beside its controller's (RouteErrors). */
  readonly errors?: ErrorReplies;
  /** Replies other than the success one and errors: a byte range (206), health's 503 with its report. */
  readonly otherReplies?: Readonly<Record<number, { readonly reply?: ReplySchema; readonly description: string }>>;
}

function replyContent(reply: ReplySchema): Record<string, unknown> {
  if (Array.isArray(reply)) return { type: 'array', items: apiSchemaRef(reply[0] as z.ZodType, 'output') };
  return apiSchemaRef(reply as z.ZodType, 'output');
}

function errorResponses(errors: ErrorReplies): Array<MethodDecorator & ClassDecorator> {
  const errorBody = apiSchemaRef(errorBodySchema, 'output');
  return Object.entries(errors).map(([status, description]) => ApiResponse({ status: Number(status), description, schema: errorBody }));
}

function queryParameters(route: RouteDeclaration): MethodDecorator[] {
  const { properties = {}, required = [] } = route.query ? openApiSchema(route.query, 'input') as { properties?: Record<string, Record<string, unknown>>; required?: string[] } : {};
  // Reversed: Nest applies the decorators last to first, so the parameters end up in the schema's order.
  return Object.entries(properties).reverse().map(([name, schema]) => {
    const description = route.queryDescriptions?.[name];
    return ApiQuery({ name, required: required.includes(name), ...(description === undefined ? {} : { description }), schema });
  });
}

const ROUTE_DECLARATION = Symbol('route declaration');

/** A route's body, query, reply, status and errors, for validation, the HTTP answer and the OpenAPI document alike. */
export function Route(route: RouteDeclaration): MethodDecorator {
  const status = route.status ?? 200;
  const decorators: MethodDecorator[] = [SetMetadata(ROUTE_DECLARATION, route), HttpCode(status), ...queryParameters(route)];
  if (route.body) decorators.push(ApiBody({ schema: apiSchemaRef(route.body, 'input'), required: route.bodyRequired ?? true }));
  const success = route.reply ? { schema: replyContent(route.reply) } : {};
  decorators.push(ApiResponse({ status, ...success, ...(route.description === undefined ? {} : { description: route.description }) }));
  for (const [other, { reply, description }] of Object.entries(route.otherReplies ?? {})) {
    decorators.push(ApiResponse({ status: Number(other), ...(reply ? { schema: replyContent(reply) } : {}), description }));
  }
  decorators.push(...errorResponses(route.errors ?? {}));
  return applyDecorators(...decorators);
}

/** Error statuses every route of a controller can answer with (401 without a token, 503 when its service is down). */
export function RouteErrors(errors: ErrorReplies): ClassDecorator & MethodDecorator {
  return applyDecorators(...errorResponses(errors));
}

function declarationOf(context: ExecutionContext): RouteDeclaration {
  const route = Reflect.getMetadata(ROUTE_DECLARATION, context.getHandler()) as RouteDeclaration | undefined;
  if (!route) throw new Error(`${context.getClass().name}.${context.getHandler().name} reads its input by its @Route but has none.`);
  return route;
}

/** The request body, validated with the route's `body` schema. */
export const RouteBody = createParamDecorator((_data: unknown, context: ExecutionContext): unknown => {
  const route = declarationOf(context);
  if (!route.body) throw new Error(`${context.getClass().name}.${context.getHandler().name} takes @RouteBody() but its @Route declares no body.`);
  const body = context.switchToHttp().getRequest<FastifyRequest>().body;
  return (route.parse ?? parseBody)(route.body, route.bodyRequired === false ? (body ?? {}) : body);
});

/** The query string, validated with the route's `query` schema. */
export const RouteQuery = createParamDecorator((_data: unknown, context: ExecutionContext): unknown => {
  const route = declarationOf(context);
  if (!route.query) throw new Error(`${context.getClass().name}.${context.getHandler().name} takes @RouteQuery() but its @Route declares no query.`);
  return (route.parse ?? parseBody)(route.query, context.switchToHttp().getRequest<FastifyRequest>().query);
});
