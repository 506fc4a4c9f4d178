import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import { SECRET_REDACT_PATHS, serializeRequest } from './secret-redaction.js';
import { traceLogFields } from './trace-context.js';

export type { Logger };
export { loggableUrl, SECRET_FIELD_NAMES, SECRET_REDACT_PATHS, serializeRequest } from './secret-redaction.js';
export { currentTrace, traceLogFields, withTrace, type TraceContext } from './trace-context.js';

/**
 * One JSON logger per process; `name` is the app, every line carries it. Secrets are redacted by name
 * (secret-redaction.ts) and a request is logged by its route, never its query string. A
 * line written while a request, job or event is handled carries its `correlationId` (and the
 * `requestId`, `causationId` it has) from the trace context.
 */
export function createLogger(name: string, level = process.env.LOG_LEVEL ?? 'info', options: LoggerOptions = {}, destination?: DestinationStream): Logger {
  const settings: LoggerOptions = {
    name,
    level,
    redact: {
      paths: [...SECRET_REDACT_PATHS],
      censor: '[redacted]',
    },
    // Fastify takes the logger's own `req` serializer over its default one, which logs the full URL.
    serializers: { req: serializeRequest },
    mixin: traceLogFields,
    ...options,
  };
  return destination ? pino(settings, destination) : pino(settings);
}

/** Routes Nest's own log lines through the same JSON logger. */
export class PinoNestLogger {
  constructor(private readonly logger: Logger) {}
  log(message: unknown, context?: string) { this.logger.info({ context }, String(message)); }
  error(message: unknown, trace?: string, context?: string) { this.logger.error({ context, trace }, String(message)); }
  warn(message: unknown, context?: string) { this.logger.warn({ context }, String(message)); }
  debug(message: unknown, context?: string) { this.logger.debug({ context }, String(message)); }
  verbose(message: unknown, context?: string) { this.logger.trace({ context }, String(message)); }
  fatal(message: unknown, context?: string) { this.logger.fatal({ context }, String(message)); }
}
