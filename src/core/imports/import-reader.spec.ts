import { Readable } from 'node:stream';
import { openImportReader, RawRow } from './import-reader';
import type { ImportFormat } from './import-types';

/** Reads a body given as chunks (each a separate Buffer) to its header and every row. */
async function read(
  chunks: (string | Buffer)[],
  format: ImportFormat = 'csv',
  delimiter = ',',
): Promise<{ header?: string[]; rows: RawRow[] }> {
  const input = Readable.from(chunks.map((c) => (typeof c === 'string' ? Buffer.from(c) : c)));
  const reader = await openImportReader(input, { format, delimiter });
  const rows: RawRow[] = [];
  for await (const row of reader.rows) rows.push(row);
  return { header: reader.header, rows };
}

describe('openImportReader, CSV', () => {
  it('reads a header and rows with LF, CRLF, or both; skips a BOM, empty lines and the trailing newline', async () => {
    for (const text of ['a,b\n1,2\n3,4\n', '\ufeffa,b\r\n1,2\r\n3,4\r\n', 'a,b\r\n1,2\n3,4', 'a,b\n1,2\n3,4\n\n']) {
      expect(await read([text])).toEqual({
        header: ['a', 'b'],
        rows: [
          { line: 2, cells: ['1', '2'] },
          { line: 3, cells: ['3', '4'] },
        ],
      });
    }
    const empties = await read(['a,b\n\n1,2\r\n\r\n\r\n3,4\n']);
    expect(empties.rows.map((r) => r.line)).toEqual([3, 6]);
  });

  it('reads the semicolon, tab and pipe delimiters', async () => {
    expect((await read(['a;b\n1,5;x\n'], 'csv', ';')).rows).toEqual([{ line: 2, cells: ['1,5', 'x'] }]);
    expect((await read(['a\tb\n1\t"x\ty"\n'], 'csv', '\t')).rows).toEqual([{ line: 2, cells: ['1', 'x\ty'] }]);
    expect((await read(['a|b\n1|2\n'], 'csv', '|')).rows).toEqual([{ line: 2, cells: ['1', '2'] }]);
  });

  it('reads quoted commas, quotes and line breaks, and counts the start line of each record', async () => {
    const text = 'a,b\n"x, y","say ""hi"""\n"two\nlines",1\r\n"crlf\r\nbare cr\rend",2\n3,4\n';
    expect((await read([text])).rows).toEqual([
      { line: 2, cells: ['x, y', 'say "hi"'] },
      { line: 3, cells: ['two\nlines', '1'] },
      { line: 5, cells: ['crlf\r\nbare cr\rend', '2'] },
      { line: 8, cells: ['3', '4'] },
    ]);
  });

  it('reads a record split between chunks, a multi-byte character included', async () => {
    const bytes = Buffer.from('name,city\n"Zoë\nX",Kraków\n');
    const chunks = [...bytes].map((b) => Buffer.from([b]));
    expect((await read(chunks)).rows).toEqual([{ line: 2, cells: ['Zoë\nX', 'Kraków'] }]);
  });

  it('makes a row with too many or too few cells a malformed row, and goes on', async () => {
    expect((await read(['a,b\n1,2,3\n4\n5,6\n'])).rows).toEqual([
      { line: 2, malformed: 'Row has 3 cells, the header has 2' },
      { line: 3, malformed: 'Row has 1 cells, the header has 2' },
      { line: 4, cells: ['5', '6'] },
    ]);
  });

  it('makes an unclosed quote a malformed row of its line and reads the lines after it again', async () => {
    expect((await read(['a,b\n1,"unclosed\r\n2,3\n\n4,5\n'])).rows).toEqual([
      { line: 2, malformed: 'Malformed CSV: a quoted cell is never closed' },
      { line: 3, cells: ['2', '3'] },
      { line: 5, cells: ['4', '5'] },
    ]);
    expect((await read(['a,b\n1,2\n3,"never closed\n'])).rows).toEqual([
      { line: 2, cells: ['1', '2'] },
      { line: 3, malformed: 'Malformed CSV: a quoted cell is never closed' },
    ]);
  });

  it('keeps a stray quote as text', async () => {
    expect((await read(['a,b\nx"y,"q"z\n1,2\n'])).rows).toEqual([
      { line: 2, cells: ['x"y', '"q"z'] },
      { line: 3, cells: ['1', '2'] },
    ]);
  });

  it('gives an empty header for an empty body', async () => {
    expect(await read([''])).toEqual({ header: [], rows: [] });
  });
});

describe('openImportReader, NDJSON', () => {
  it('reads one value per line, with its line number; a bad line is malformed; blank lines are skipped', async () => {
    const text = '\ufeff{"city":"Paris"}\r\n\n{"city":\n{"city":"Oslo"}';
    expect(await read([text], 'ndjson')).toEqual({
      header: undefined,
      rows: [
        { line: 1, object: { city: 'Paris' } },
        { line: 3, malformed: 'Line is not valid JSON' },
        { line: 4, object: { city: 'Oslo' } },
      ],
    });
  });

  it('keeps a multi-byte character split between chunks', async () => {
    const bytes = Buffer.from('{"city":"Zürich 🏔"}\n{"city":"Łódź"}\n');
    const at = bytes.indexOf(0xc3) + 1; // inside ü
    const emoji = bytes.indexOf(0xf0) + 2; // inside the 4-byte emoji
    const chunks = [bytes.subarray(0, at), bytes.subarray(at, emoji), bytes.subarray(emoji)];
    expect((await read(chunks, 'ndjson')).rows).toEqual([
      { line: 1, object: { city: 'Zürich 🏔' } },
      { line: 2, object: { city: 'Łódź' } },
    ]);
  });
});
