import { PartialType } from '@nestjs/swagger';
import { JoinColumnField, NumberField, TextField } from '../../../src/core/fields';
import { RecordResponse } from '../../../src/core/openapi/record-response';

/** A collection that exists only in the test tree: proof that adding one needs no edit in src/core. */
export class Gadget {
  @TextField({ description: 'What the gadget is called' })
  name?: string;

  @NumberField({ nullable: true })
  price?: number | null;

  @JoinColumnField({ name: 'company', target: 'companies', inverse: 'gadgets', onDelete: 'SET_NULL', nullable: true })
  companyId?: string | null;
}

export class GadgetForUpdate extends PartialType(Gadget, { skipNullProperties: false }) {}

export class GadgetForResponse extends RecordResponse(Gadget) {}
