import { PartialType } from '@nestjs/swagger';
import { NumberField, TextField } from '../../core/fields';
import { RecordResponse } from '../../core/openapi/record-response';

/** FavoriteFolder: the create body (every writable field, declared once). */
export class FavoriteFolder {
  @NumberField({ default: 0, system: true })
  position?: number;

  @TextField()
  name?: string;
}

/** FavoriteFolder update body: every field optional (PATCH). */
export class FavoriteFolderForUpdate extends PartialType(FavoriteFolder, { skipNullProperties: false }) {}

/** FavoriteFolder as returned: common fields, readable fields and relations. */
export class FavoriteFolderForResponse extends RecordResponse(FavoriteFolder) {}
