import { StreamableFile } from '@nestjs/common';
import type { OpenExport } from '../records/record-exports';

/**
 * The answer of an export: its bytes as an attachment named after the collection
 * (`people.csv`). A failure once bytes have gone out destroys the response: the client sees a
 * truncated transfer, never a complete-looking file.
 */
export function exportFile(open: OpenExport): StreamableFile {
  const file = new StreamableFile(open.stream, {
    type: open.type,
    disposition: `attachment; filename="${open.filename}"`,
  });
  return file.setErrorHandler((_error, response) => {
    (response as unknown as { destroy(): void }).destroy();
  });
}
