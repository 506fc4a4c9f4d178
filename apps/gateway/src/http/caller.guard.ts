import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard, type IAuthGuard } from '@nestjs/passport';
import { OWNER_STRATEGY, VIEWER_STRATEGY } from '../auth/caller.strategies.js';
import { PUBLIC_ROUTE } from './public.decorator.js';
import { VIEWER_ROUTE } from './viewer-route.decorator.js';

/**
 * Guards every HTTP handler by default (registered as APP_GUARD) through the passport strategies:
 * owner routes take an owner's access token ('owner' strategy), @ViewerRoute() handlers a viewer
 * token ('viewer' strategy). A token of the other kind is refused on each. Handlers opt out with
 * @Public(). The strategies' errors are the DomainErrors the verifiers raise, so the texts and
 * statuses are the ones the error filter has always given.
 */
@Injectable()
export class CallerGuard implements CanActivate {
  private readonly owner: IAuthGuard = new (AuthGuard(OWNER_STRATEGY))();
  private readonly viewer: IAuthGuard = new (AuthGuard(VIEWER_STRATEGY))();

  constructor(private readonly reflector: Reflector) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, targets)) return true;
    const guard = this.reflector.getAllAndOverride<boolean>(VIEWER_ROUTE, targets) ? this.viewer : this.owner;
    return (await guard.canActivate(context)) as boolean;
  }
}
