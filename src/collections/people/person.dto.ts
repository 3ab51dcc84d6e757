import { PartialType } from '@nestjs/swagger';
import {
  ActorField,
  EmailsField,
  FullNameField,
  JoinColumnField,
  LinksField,
  PhonesField,
  PositionField,
  TextField,
  type Actor,
  type Emails,
  type FullName,
  type Links,
  type Phones,
} from '../../core/fields';
import { RecordResponse } from '../../core/openapi/record-response';

/** Person: the create body (every writable field, declared once). */
export class Person {
  @FullNameField({ nullable: true })
  name?: FullName | null;

  @EmailsField({ unique: true })
  emails?: Emails;

  @LinksField({ nullable: true })
  linkedinLink?: Links | null;

  @LinksField({ nullable: true })
  xLink?: Links | null;

  @TextField({ indexed: true })
  jobTitle?: string;

  @TextField({ deprecated: true, nullable: true })
  phone?: string | null;

  @PhonesField({ nullable: true })
  phones?: Phones | null;

  @TextField({ indexed: true })
  city?: string;

  @TextField({ description: 'Image identifier' })
  avatarUrl?: string;

  @PositionField()
  position?: number;

  @ActorField({
    description: 'Who created the record: set by the server from the API key unless createdBy.source is given',
  })
  createdBy?: Actor;

  @JoinColumnField({ name: 'company', target: 'companies', inverse: 'people', onDelete: 'SET_NULL', nullable: true })
  companyId?: string | null;
}

/** Person update body: every field optional (PATCH). */
export class PersonForUpdate extends PartialType(Person, { skipNullProperties: false }) {}

/** Person as returned: common fields, readable fields and relations. */
export class PersonForResponse extends RecordResponse(Person) {}
