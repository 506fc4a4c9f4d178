import { Controller, Get, Inject, Param } from '@nestjs/common';
import { ApiBearerAuth, ApiParam, ApiTags } from '@nestjs/swagger';
import { AccessMessages, LetterMessages, type FinalAccess, type Letter, type Portrait, letterSchema, portraitSchema, finalAccessSchema } from '@lv/contracts';
import type { ViewerCaller } from '@lv/platform/auth';
import type { CallContext } from '@lv/platform/nest';
import { ViewerEntriesService } from '../access/viewer-entries.service.js';
import { CallCtx, CurrentViewer } from '../http/request-context.js';
import { Route, RouteErrors } from '../http/route.js';
import { ViewerRoute } from '../http/viewer-route.decorator.js';

const VIEWER_UNAUTHENTICATED = { 401: 'UNAUTHENTICATED or SESSION_EXPIRED (expired or revoked view session); an owner’s access token is refused here.' } as const;
const SECTION_NOT_SHARED = { 403: `FORBIDDEN: "${AccessMessages.sectionNotShared}"` } as const;

/**
 * What a family viewer opens, beyond a tab's list: a letter's words, the Who I Am page, If I'm Not
 * There's final thoughts. Each open is recorded in the owner's view audit before anything is read, and
 * each read goes to the owning service with the viewer's token, so that service checks the section again.
 */
@ApiTags('view')
@RouteErrors({
  503: 'access-keys (or the service read) is unavailable.',
  ...VIEWER_UNAUTHENTICATED,
})
@ApiBearerAuth()
@ViewerRoute()
@Controller('view')
export class ViewContentController {
  constructor(@Inject(ViewerEntriesService) private readonly entries: ViewerEntriesService) {}

  @Get('letters/:id')
  @ApiParam({ name: 'id', format: 'uuid' })
  @Route({
    reply: letterSchema,
    description: 'One letter, whole, for a key of the Letters section (a milestone key: its own letter only, once released).',
    errors: {
      ...SECTION_NOT_SHARED,
      404: `NOT_FOUND: "${LetterMessages.notFound}" (another vault's, still sealed for a milestone, deleted, or not an id).`,
    },
  })
  letter(@Param('id') id: string, @CurrentViewer() viewer: ViewerCaller, @CallCtx() call: CallContext): Promise<Letter> {
    return this.entries.letter(viewer, id, call);
  }

  @Get('who-i-am')
  @Route({
    reply: portraitSchema,
    description: 'The owner’s Who I Am words: about me, traits, favourites, values.',
    errors: {
      ...SECTION_NOT_SHARED,
    },
  })
  portrait(@CurrentViewer() viewer: ViewerCaller, @CallCtx() call: CallContext): Promise<Portrait> {
    return this.entries.portrait(viewer, call);
  }

  @Get('if-im-not-there')
  @Route({
    reply: finalAccessSchema,
    description: 'Whether the final words and messages open (the owner allows a preview, or the vault was released), and the final thoughts when they do.',
    errors: {
      ...SECTION_NOT_SHARED,
    },
  })
  finals(@CurrentViewer() viewer: ViewerCaller, @CallCtx() call: CallContext): Promise<FinalAccess> {
    return this.entries.finals(viewer, call);
  }
}
