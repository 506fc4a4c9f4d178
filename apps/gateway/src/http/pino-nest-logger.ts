import type { LoggerService } from '@nestjs/common';
import type { Logger } from '@lv/platform/logging';

/** Nest contexts whose "log" lines are start-up noise (route mapping, module wiring): written at debug. */
const CHATTY_CONTEXTS = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestFactory', 'NestApplication']);

/** Sends Nest's own log lines through the gateway's pino logger, so every line is JSON with the app name. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, ...params: unknown[]): void {
    const context = contextOf(params);
    this.write(context && CHATTY_CONTEXTS.has(context) ? 'debug' : 'info', message, context);
  }

  error(message: unknown, ...params: unknown[]): void {
    // Nest calls error(message, stack?, context?)
    const context = contextOf(params);
    const stack = params.length > 1 && typeof params[0] === 'string' ? params[0] : undefined;
    if (message instanceof Error) this.logger.error({ err: message, context }, message.message);
    else this.logger.error({ context, ...(stack ? { stack } : {}) }, String(message));
  }

  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, contextOf(params));
  }

  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, contextOf(params));
  }

  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, contextOf(params));
  }

  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, contextOf(params));
  }

  private write(level: 'fatal' | 'warn' | 'info' | 'debug' | 'trace', message: unknown, context: string | undefined): void {
    if (message instanceof Error) this.logger[level]({ err: message, context }, message.message);
    else if (message && typeof message === 'object') this.logger[level]({ ...message, context });
    else this.logger[level]({ context }, String(message));
  }
}

function contextOf(params: unknown[]): string | undefined {
  const last = params[params.length - 1];
  return typeof last === 'string' ? last : undefined;
}
