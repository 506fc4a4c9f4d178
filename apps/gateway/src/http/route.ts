import { applyDecorators, HttpCode } from '@nestjs/common';
import { ApiBody, ApiResponse } from '@nestjs/swagger';
import type { z } from 'zod';
import { errorBodySchema } from '@lv/contracts';
import { apiSchemaRef } from './api-schemas.js';

/** An error status's meaning; its body is always an ErrorBody. */
export type ErrorReplies = Readonly<Record<number, string>>;

/** A reply schema, or `[schema]` for a JSON array of it. */
export type ReplySchema = z.ZodType | readonly [z.ZodType];

/**
 * What one route takes and answers, declared once: the document (openapi.ts) is generated from it,
 * and `status` is the status the route answers with.
 */
export interface RouteDeclaration {
  /** The JSON body the handler validates (the document shows what a client sends: the schema's input side). */
  readonly body?: z.ZodType;
  /** false when the route takes no body as well (the document marks the body optional). */
  readonly bodyRequired?: boolean;
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

/** A route's body, reply, status and errors, for the HTTP answer and the OpenAPI document alike. */
export function Route(route: RouteDeclaration): MethodDecorator {
  const status = route.status ?? 200;
  const decorators: MethodDecorator[] = [HttpCode(status)];
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
