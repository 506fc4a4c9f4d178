import { Controller, Get, Inject, Param } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import { AccessMessages, LetterMessages, type FinalAccess, type Letter, type Portrait } from '@lv/contracts';
import type { ViewerCaller } from '@lv/platform/auth';
import type { CallContext } from '@lv/platform/nest';
import { ViewerEntriesService } from '../access/viewer-entries.service.js';
import { ErrorBodyDto, FinalAccessDto, LetterDto, PortraitDto } from '../http/api-models.js';
import { CallCtx, CurrentViewer } from '../http/request-context.js';
import { ViewerRoute } from '../http/viewer-route.decorator.js';

const VIEWER_UNAUTHENTICATED = { status: 401, type: ErrorBodyDto, description: 'UNAUTHENTICATED or SESSION_EXPIRED (expired or revoked view session); an owner’s access token is refused here.' } as const;
const SECTION_NOT_SHARED = { status: 403, type: ErrorBodyDto, description: `FORBIDDEN: "${AccessMessages.sectionNotShared}"` } as const;

/**
 * What a family viewer opens, beyond a tab's list: a letter's words, the Who I Am page, If I'm Not
 * There's final thoughts. Each open is recorded in the owner's view audit before anything is read, and
 * each read goes to the owning service with the viewer's token, so that service checks the section again.
 */
@ApiTags('view')
@ApiResponse({ status: 503, type: ErrorBodyDto, description: 'access-keys (or the service read) is unavailable.' })
@ApiResponse(VIEWER_UNAUTHENTICATED)
@ApiBearerAuth()
@ViewerRoute()
@Controller('view')
export class ViewContentController {
  constructor(@Inject(ViewerEntriesService) private readonly entries: ViewerEntriesService) {}

  @Get('letters/:id')
  @ApiParam({ name: 'id', format: 'uuid' })
  @ApiOkResponse({ type: LetterDto, description: 'One letter, whole, for a key of the Letters section (a milestone key: its own letter only, once released).' })
  @ApiResponse(SECTION_NOT_SHARED)
  @ApiResponse({ status: 404, type: ErrorBodyDto, description: `NOT_FOUND: "${LetterMessages.notFound}" (another vault's, still sealed for a milestone, deleted, or not an id).` })
  letter(@Param('id') id: string, @CurrentViewer() viewer: ViewerCaller, @CallCtx() call: CallContext): Promise<Letter> {
    return this.entries.letter(viewer, id, call);
  }

  @Get('who-i-am')
  @ApiOkResponse({ type: PortraitDto, description: 'The owner’s Who I Am words: about me, traits, favourites, values.' })
  @ApiResponse(SECTION_NOT_SHARED)
  portrait(@CurrentViewer() viewer: ViewerCaller, @CallCtx() call: CallContext): Promise<Portrait> {
    return this.entries.portrait(viewer, call);
  }

  @Get('if-im-not-there')
  @ApiOkResponse({ type: FinalAccessDto, description: 'Whether the final words and messages open (the owner allows a preview, or the vault was released), and the final thoughts when they do.' })
  @ApiResponse(SECTION_NOT_SHARED)
  finals(@CurrentViewer() viewer: ViewerCaller, @CallCtx() call: CallContext): Promise<FinalAccess> {
    return this.entries.finals(viewer, call);
  }
}
