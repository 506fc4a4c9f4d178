import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ErrorCodes,
  SUBSCRIPTION_TIERS,
  type Credentials,
  type ErrorBody,
  type ErrorCode,
  type HealthReport,
  type HealthStatus,
  type SessionView,
  type SubscriptionTier,
  type UpdateProfileRequest,
  type UserProfile,
  type VaultStats,
} from '@lv/contracts';

// Documentation-only classes for the OpenAPI document. The wire shapes are the contracts'
// interfaces: each class `implements` its interface, so the document cannot drift from them.
// Validation happens with zod at the edge (see *.schemas.ts), not through these classes.

export class CredentialsDto implements Credentials {
  @ApiProperty({ example: 'parent@example.com', description: 'Trimmed and lower-cased by the gateway.' })
  email!: string;

  @ApiProperty({ minLength: 6, example: 'correct horse battery staple' })
  password!: string;
}

export class UserProfileDto implements UserProfile {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() email!: string;
  @ApiProperty({ type: String, nullable: true }) full_name!: string | null;
  @ApiProperty({ type: String, nullable: true, format: 'uri' }) avatar_url!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ enum: SUBSCRIPTION_TIERS }) subscription_tier!: SubscriptionTier;
  @ApiProperty() ai_admin!: boolean;
}

export class SessionViewDto implements SessionView {
  @ApiProperty({ description: 'RS256 access token; send it as `Authorization: Bearer <token>`.' }) accessToken!: string;
  @ApiProperty({ description: 'Epoch milliseconds.' }) accessTokenExpiresAt!: number;
  @ApiProperty({ type: UserProfileDto }) profile!: UserProfileDto;
}

export class UpdateProfileDto implements UpdateProfileRequest {
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 120 }) full_name?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, format: 'uri', description: 'An https:// URL, or null to remove it.' }) avatar_url?: string | null;
}

export class VaultStatsDto implements VaultStats {
  @ApiProperty({ minimum: 0 }) videosSaved!: number;
  @ApiProperty({ minimum: 0 }) lettersWritten!: number;
  @ApiProperty({ minimum: 0, maximum: 1, description: '1 when the reflection ("Thoughts & Feelings") is saved, else 0.' }) thoughtsSaved!: number;
  @ApiProperty({ minimum: 1 }) daysActive!: number;
}

export class HealthCheckDto {
  @ApiProperty({ enum: ['up', 'down'] }) status!: HealthStatus;
  @ApiPropertyOptional() detail?: string;
  @ApiPropertyOptional() latencyMs?: number;
}

export class HealthReportDto implements HealthReport {
  @ApiProperty({ enum: ['up', 'down'] }) status!: HealthStatus;
  @ApiProperty({
    type: 'object',
    additionalProperties: { $ref: '#/components/schemas/HealthCheckDto' },
    example: { nats: { status: 'up', latencyMs: 1 }, redis: { status: 'up', latencyMs: 1 }, identity: { status: 'up', latencyMs: 3 }, 'postgres:identity': { status: 'up', latencyMs: 3 }, 'storage:vault-media': { status: 'up', latencyMs: 3 } },
  })
  checks!: Record<string, HealthCheckDto>;
}

export class ErrorBodyDto implements ErrorBody {
  @ApiProperty({ enum: Object.keys(ErrorCodes) }) code!: ErrorCode;
  @ApiProperty({ description: 'The text a person sees.' }) message!: string;
  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string' }, description: 'Per-field messages (VALIDATION_FAILED).' }) fields?: Record<string, string>;
  @ApiPropertyOptional({ description: 'Set on INTERNAL errors; quote it to support.' }) errorId?: string;
  @ApiPropertyOptional({ description: 'Seconds until a RATE_LIMITED caller may retry (also the Retry-After header).' }) retryAfter?: number;
}
