import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  LETTER_CONTENT_MAX, LETTER_PREVIEW_LENGTH, LETTER_TITLE_MAX, type DeleteLetterReply, type Letter, type LetterPage, type LetterSummary,
  type ReviseLetterRequest, type WriteLetterRequest,
} from '@lv/contracts';

// Documentation-only classes for the OpenAPI document; each implements its contracts interface so
// the document cannot drift from the wire shapes. Validation is zod's (letters.schemas.ts).

export class LetterSummaryDto implements LetterSummary {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ maxLength: LETTER_TITLE_MAX }) title!: string;
  @ApiProperty({ maxLength: LETTER_PREVIEW_LENGTH, description: 'The first 100 characters of the letter.' }) preview!: string;
  @ApiProperty({ minimum: 0 }) word_count!: number;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
  @ApiProperty({ minimum: 1, description: 'Send it back as expectedVersion when saving an edit.' }) version!: number;
}

export class LetterDto extends LetterSummaryDto implements Letter {
  @ApiProperty({ maxLength: LETTER_CONTENT_MAX }) content!: string;
}

export class LetterPageDto implements LetterPage {
  @ApiProperty({ type: [LetterSummaryDto], description: 'Newest first.' }) letters!: LetterSummaryDto[];
  @ApiProperty({ type: String, nullable: true, description: 'Pass as ?cursor= for the next (older) page; null at the end.' }) nextCursor!: string | null;
}

export class WriteLetterDto implements WriteLetterRequest {
  @ApiPropertyOptional({
    format: 'uuid',
    description: 'Chosen by the client for each new letter: sending the same letter again with the same id returns the first save instead of a copy.',
  })
  id?: string;
  @ApiProperty({ minLength: 1, maxLength: LETTER_TITLE_MAX, description: 'Trimmed; must not be blank.' }) title!: string;
  @ApiProperty({ minLength: 1, maxLength: LETTER_CONTENT_MAX, description: 'Trimmed; must not be blank.' }) content!: string;
}

export class ReviseLetterDto implements ReviseLetterRequest {
  @ApiProperty({ minLength: 1, maxLength: LETTER_TITLE_MAX }) title!: string;
  @ApiProperty({ minLength: 1, maxLength: LETTER_CONTENT_MAX }) content!: string;
  @ApiProperty({ minimum: 0, description: 'The version the editor showed; when the letter changed since, 409 CONFLICT and nothing is saved.' }) expectedVersion!: number;
}

export class DeleteLetterReplyDto implements DeleteLetterReply {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ enum: [true] }) deleted!: true;
}
