import { PartialType } from '@nestjs/swagger';
import {
  ActorField,
  AddressField,
  BooleanField,
  CurrencyField,
  JoinColumnField,
  LinksField,
  NumberField,
  PositionField,
  TextField,
  type Actor,
  type Address,
  type Currency,
  type Links,
} from '../../core/fields';
import { RecordResponse } from '../../core/openapi/record-response';

/** Company: the create body (every writable field, declared once). */
export class Company {
  @TextField()
  name?: string;

  @LinksField({ unique: true })
  domainName?: Links;

  @NumberField({ nullable: true, indexed: true })
  employees?: number | null;

  @LinksField({ nullable: true })
  linkedinLink?: Links | null;

  @LinksField({ nullable: true })
  xLink?: Links | null;

  @CurrencyField({ nullable: true, indexed: ['amountMicros'] })
  annualRecurringRevenue?: Currency | null;

  @AddressField({ nullable: true, indexed: ['addressCity'] })
  address?: Address | null;

  @BooleanField({ default: false })
  idealCustomerProfile?: boolean;

  @PositionField()
  position?: number;

  @ActorField({
    description: 'Who created the record: set by the server from the API key unless createdBy.source is given',
  })
  createdBy?: Actor;

  @JoinColumnField({
    name: 'accountOwner',
    target: 'workspaceMembers',
    inverse: 'accountOwnerForCompanies',
    onDelete: 'SET_NULL',
    nullable: true,
  })
  accountOwnerId?: string | null;

  @TextField({ deprecated: true, nullable: true })
  addressOld?: string | null;
}

/** Company update body: every field optional (PATCH). */
export class CompanyForUpdate extends PartialType(Company, { skipNullProperties: false }) {}

/** Company as returned: common fields, readable fields and relations. */
export class CompanyForResponse extends RecordResponse(Company) {}
