import { ApiProperty } from '@nestjs/swagger';
import { REFLECTION_MAX, type Reflection, type SaveReflectionRequest } from '@lv/contracts';

// Documentation-only classes for the OpenAPI document (validation is zod's, reflection.schemas.ts).

export class ReflectionDto implements Reflection {
  @ApiProperty({ maxLength: REFLECTION_MAX, description: 'The saved reflection; empty when none is saved.' }) text!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When it was last saved; null when none is saved.' }) updated_at!: string | null;
}

export class SaveReflectionDto implements SaveReflectionRequest {
  @ApiProperty({ maxLength: REFLECTION_MAX, description: 'Trimmed; an empty or blank text clears the reflection.' }) text!: string;
}
