import { Controller, Get } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiProperty, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { ViewerCaller, ViewerScope } from '@lv/platform/auth';
import { VIEWER_SCOPES } from '@lv/platform/auth';
import { ErrorBodyDto } from '../http/api-models.js';
import { CurrentViewer } from '../http/request-context.js';
import { ViewerRoute } from '../http/viewer-route.decorator.js';

/** What a viewer's client learns about its own view session. */
export interface ViewSessionView {
  vaultOwnerId: string;
  viewSessionId: string;
  scopes: ViewerScope[];
  /** Epoch milliseconds after which the viewer token is refused. */
  expiresAt: number;
}

class ViewSessionDto implements ViewSessionView {
  @ApiProperty({ format: 'uuid' }) vaultOwnerId!: string;
  @ApiProperty() viewSessionId!: string;
  @ApiProperty({ enum: VIEWER_SCOPES, isArray: true }) scopes!: ViewerScope[];
  @ApiProperty({ description: 'Epoch milliseconds' }) expiresAt!: number;
}

/** /api/view/*: what a family viewer reads, with a viewer token (never an owner's access token). */
@ApiTags('view')
@ApiBearerAuth()
@ApiResponse({ status: 401, type: ErrorBodyDto, description: 'UNAUTHENTICATED or SESSION_EXPIRED (expired or revoked view session).' })
@ViewerRoute()
@Controller('view')
export class ViewController {
  @Get('session')
  @ApiOkResponse({ type: ViewSessionDto, description: 'Which vault the viewer reads, and what it may read there.' })
  session(@CurrentViewer() viewer: ViewerCaller): ViewSessionView {
    return { vaultOwnerId: viewer.vaultOwnerId, viewSessionId: viewer.viewSessionId, scopes: viewer.scopes, expiresAt: viewer.expiresAt };
  }
}
