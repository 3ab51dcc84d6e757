import { StreamableFile } from '@nestjs/common';
import type { SetHeader } from '../http/response-headers.decorator';
import type { OpenExport } from '../records/record-exports';

/**
 * The answer of an export: its bytes as an attachment named after the collection
 * (`people.csv`), with the feed position of its snapshot in `X-Changes-Token`. A failure once bytes have gone out destroys the response: the client sees a
 * truncated transfer, never a complete-looking file.
 */
export function exportFile(open: OpenExport, header: SetHeader): StreamableFile {
  header('X-Changes-Token', open.changesToken);
  const file = new StreamableFile(open.stream, {
    type: open.type,
    disposition: `attachment; filename="${open.filename}"`,
  });
  return file.setErrorHandler((_error, response) => {
    (response as unknown as { destroy(): void }).destroy();
  });
}
