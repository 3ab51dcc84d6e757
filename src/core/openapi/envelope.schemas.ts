import { ApiProperty, ApiSchema } from '@nestjs/swagger';

/** `{statusCode, error, messages}`: the body of every error (API.md section 7). */
@ApiSchema({ name: 'ErrorEnvelope' })
export class ErrorEnvelopeSchema {
  @ApiProperty({ type: 'integer', example: 400 }) statusCode!: number;
  @ApiProperty({ type: 'string', example: 'BadRequestException' }) error!: string;
  @ApiProperty({ type: 'array', items: { type: 'string' }, example: ["field 'foo' does not exist in 'person' object"] })
  messages!: string[];
}

/** Keyset pagination state of a list page. */
@ApiSchema({ name: 'PageInfo' })
export class PageInfoSchema {
  @ApiProperty({ type: 'boolean' }) hasNextPage!: boolean;
  @ApiProperty({ type: 'boolean' }) hasPreviousPage!: boolean;
  @ApiProperty({ type: 'string', nullable: true, description: 'Cursor of the first record; pass as ending_before' })
  startCursor!: string | null;
  @ApiProperty({ type: 'string', nullable: true, description: 'Cursor of the last record; pass as starting_after' })
  endCursor!: string | null;
}
