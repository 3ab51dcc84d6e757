import { PartialType } from '@nestjs/swagger';
import {
  ActorField,
  CurrencyField,
  DateTimeField,
  JoinColumnField,
  PositionField,
  SelectField,
  TextField,
  type Actor,
  type Currency,
} from '../../core/fields';
import { RecordResponse } from '../../core/openapi/record-response';

export const OPPORTUNITY_STAGE_OPTIONS = ['NEW', 'SCREENING', 'MEETING', 'PROPOSAL', 'CUSTOMER'] as const;

/** Opportunity: the create body (every writable field, declared once). */
export class Opportunity {
  @TextField()
  name?: string;

  @CurrencyField({ nullable: true, indexed: ['amountMicros'] })
  amount?: Currency | null;

  @DateTimeField({ nullable: true, indexed: true })
  closeDate?: string | null;

  @SelectField(OPPORTUNITY_STAGE_OPTIONS, { description: 'Indexed', default: 'NEW', indexed: true })
  stage?: string;

  @PositionField()
  position?: number;

  @ActorField({
    description: 'Who created the record: set by the server from the API key unless createdBy.source is given',
  })
  createdBy?: Actor;

  @JoinColumnField({
    name: 'pointOfContact',
    target: 'people',
    inverse: 'pointOfContactForOpportunities',
    onDelete: 'SET_NULL',
    nullable: true,
  })
  pointOfContactId?: string | null;

  @JoinColumnField({
    name: 'company',
    target: 'companies',
    inverse: 'opportunities',
    onDelete: 'SET_NULL',
    nullable: true,
  })
  companyId?: string | null;

  @TextField({ deprecated: true, default: '0' })
  probability?: string;
}

/** Opportunity update body: every field optional (PATCH). */
export class OpportunityForUpdate extends PartialType(Opportunity, { skipNullProperties: false }) {}

/** Opportunity as returned: common fields, readable fields and relations. */
export class OpportunityForResponse extends RecordResponse(Opportunity) {}
