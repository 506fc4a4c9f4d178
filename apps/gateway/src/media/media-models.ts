import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  MEDIA_TYPES, RECORDING_TITLE_MAX, type MediaIntegrity, type MediaType, type PlaybackLink, type Recording, type StartUploadRequest, type TimelineEntry,
  type TimelineEntryType, type TimelinePage, type TimelineSource, type UploadTicket,
} from '@lv/contracts';

// Documentation-only classes for the OpenAPI document; each `implements` its contracts interface.

const INTEGRITY = ['pending', 'verified', 'mismatch'];

export class StartUploadDto implements StartUploadRequest {
  @ApiProperty({ enum: MEDIA_TYPES }) type!: MediaType;
  @ApiProperty({ maxLength: RECORDING_TITLE_MAX, example: 'For your 18th birthday' }) title!: string;
  @ApiProperty({ pattern: '^[0-9a-f]{64}$', description: 'SHA-256 of the whole recording, computed by the browser.' }) sha256!: string;
  @ApiProperty({ minimum: 1, description: 'Bytes the PUT will send.' }) size!: number;
}

export class UploadTicketDto implements UploadTicket {
  @ApiProperty({ format: 'uuid' }) uploadId!: string;
  @ApiProperty({ example: '/api/media/uploads/0b7a2d2e-5d4f-4c59-8d3e-9f0a1b2c3d4e' }) uploadUrl!: string;
  @ApiProperty({ example: '6f1c9a52-3a8e-4d52-9a55-0f7f3b1f8c11/video_1764590400000.webm' }) objectKey!: string;
  @ApiProperty({ enum: ['video/webm', 'audio/webm'] }) contentType!: string;
  @ApiProperty() maxBytes!: number;
}

export class RecordingDto implements Recording {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ enum: MEDIA_TYPES }) type!: MediaType;
  @ApiProperty({ enum: MEDIA_TYPES }) file_type!: MediaType;
  @ApiProperty() title!: string;
  @ApiProperty({ description: 'Object key in the vaultmedia bucket.' }) file_path!: string;
  @ApiProperty() content_type!: string;
  @ApiProperty() size!: number;
  @ApiProperty({ description: 'SHA-256 of the content.' }) blob_hash!: string;
  @ApiProperty({ enum: INTEGRITY, description: 'Set by the media-hashing job after the save.' }) integrity!: MediaIntegrity;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) timestamp!: string;
}

export class PlaybackLinkDto implements PlaybackLink {
  @ApiProperty({ description: 'Same-origin, signed for 3600 s and for you only.' }) url!: string;
  @ApiProperty({ description: 'Epoch milliseconds.' }) expiresAt!: number;
}

export class TimelineEntryDto implements TimelineEntry {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ enum: ['vault-media', 'letters', 'court-journal'] }) source!: TimelineSource;
  @ApiProperty({ enum: ['video', 'audio', 'text', 'letter', 'document', 'journal'] }) type!: TimelineEntryType;
  @ApiProperty({ enum: ['media', 'message'] }) entry_type!: 'media' | 'message';
  @ApiProperty() title!: string;
  @ApiProperty({ type: String, nullable: true }) file_path!: string | null;
  @ApiProperty({ type: String, nullable: true }) blob_hash!: string | null;
  @ApiProperty({ type: Number, nullable: true }) size!: number | null;
  @ApiProperty({ enum: INTEGRITY, nullable: true }) integrity!: MediaIntegrity | null;
  @ApiProperty({ type: Number, nullable: true }) word_count!: number | null;
  @ApiProperty({ type: 'object', additionalProperties: true }) metadata!: Record<string, unknown>;
  @ApiProperty({ format: 'date-time' }) timestamp!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
}

export class TimelinePageDto implements TimelinePage {
  @ApiProperty({ type: TimelineEntryDto, isArray: true }) entries!: TimelineEntryDto[];
  @ApiPropertyOptional({ type: String, nullable: true, description: 'Pass as ?before= for older entries.' }) nextCursor!: string | null;
}
