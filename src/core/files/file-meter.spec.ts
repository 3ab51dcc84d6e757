import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { FileMeter } from './file-meter';

/** The type the meter gives `chunks` sent one by one under `fileName`. */
async function typeOf(chunks: Buffer[], fileName?: string): Promise<string> {
  const meter = new FileMeter(1024 * 1024, new Set(), fileName);
  await pipeline(Readable.from(chunks), meter, async (source: AsyncIterable<Buffer>) => {
    for await (const _ of source);
  });
  return meter.facts().mimeType;
}

describe('FileMeter text typing', () => {
  const text = Buffer.from('€uro 😀 '.repeat(1000));

  it('reads UTF-8 split inside a character at every offset of a 4-byte one as text', async () => {
    const at = text.indexOf(Buffer.from('😀'));
    for (let cut = at + 1; cut < at + 4; cut++)
      expect(await typeOf([text.subarray(0, cut), text.subarray(cut)], 'a.csv')).toBe('text/csv; charset=utf-8');
  });

  it('gives octet-stream to a NUL or a bad byte in a later chunk, and to an empty file', async () => {
    expect(await typeOf([text, Buffer.from('\0')])).toBe('application/octet-stream');
    expect(await typeOf([text, Buffer.from([0xc0, 0x80])])).toBe('application/octet-stream');
    expect(await typeOf([])).toBe('application/octet-stream');
  });
});
