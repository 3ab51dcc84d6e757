import { parse, type CsvError, type Info } from 'csv-parse';
import { pipeline, Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { badRequest } from '../validation/record-body';
import type { ImportFormat } from './import-types';

/**
 * Reads an import body (API.md section 17) as a stream of raw rows, in constant memory.
 *
 * CSV (RFC 4180, read by csv-parse): UTF-8 with or without BOM; records end with CR LF or LF (both
 * may appear in one file); quoted fields may hold the delimiter, `""` and line breaks; fully empty
 * lines are skipped. A stray quote (`a"b`, `"x"y`) is kept as text, as spreadsheets read it, so
 * that no record around it is lost. The first record is the header. Physical lines: CR LF, LF and
 * a lone CR each end one; a record's `line` is the physical line it starts on (the header's is 1
 * unless empty lines come first). A record whose cell count differs from the header's, or that
 * csv-parse cannot read (an unclosed quote), is a `malformed` row of its start line. After an
 * unclosed quote csv-parse has taken the rest of the file as one field (held in memory: the one
 * case where memory grows with the file): the rest is read again from the physical line after the
 * bad record's first one, so the rows after it are still read.
 *
 * NDJSON: one JSON value per LF-ended line (CR LF tolerated, blank lines skipped, a BOM ignored);
 * a line JSON.parse refuses is a `malformed` row. `line` counts every physical line from 1.
 */

/** One record of the file: its cells (CSV), its JSON value (NDJSON), or why it could not be read. */
export type RawRow =
  { line: number; cells: string[] } | { line: number; object: unknown } | { line: number; malformed: string };

/** What the reader gives: the CSV header (undefined for NDJSON) and the rows after it. */
export interface ImportReader {
  header?: string[];
  rows: AsyncIterable<RawRow>;
}

const LINE_BREAK = /\r\n|\r|\n/g;

/** The messages of csv-parse's errors, without its own line numbers (they count CR LF twice). */
const CSV_ERRORS: Record<string, string> = {
  CSV_QUOTE_NOT_CLOSED: 'a quoted cell is never closed',
  CSV_INVALID_CLOSING_QUOTE: 'a closing quote is followed by something else than a delimiter or a line break',
  INVALID_OPENING_QUOTE: 'a quote appears inside a cell that does not start with one',
};

function csvErrorMessage(error: CsvError): string {
  return `Malformed CSV: ${CSV_ERRORS[error.code] ?? error.message}`;
}

function lineBreaks(text: string): number {
  return text.match(LINE_BREAK)?.length ?? 0;
}

/** A record csv-parse emits (with `info` and `raw`), or a skipped one pushed by our `skip` handler. */
type ParsedItem = { record: string[]; info: Info } | { error: CsvError; raw: string; emptyLines: number };

/**
 * The text after the first physical line of a record csv-parse gave up on at the end of the file
 * (its raw text, after the empty lines skipped before it), or undefined when nothing follows.
 */
function afterFirstLine(raw: string | undefined): string | undefined {
  const text = (raw ?? '').replace(/^[\r\n]+/, '');
  const m = /\r\n|\r|\n/.exec(text);
  const rest = m ? text.slice(m.index + m[0].length) : '';
  return rest === '' ? undefined : rest;
}

/** Every CSV record with its start line, or a malformed one; the header included. */
async function* csvRecords(input: Readable, delimiter: string): AsyncGenerator<RawRow> {
  let source: Readable | undefined = input;
  let offset = 0; // physical lines before the current source's first line
  while (source) {
    const parser = parse({
      bom: true,
      delimiter,
      record_delimiter: ['\r\n', '\n'],
      info: true,
      raw: true,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      skip_records_with_error: true,
    });
    // a skipped record takes its place among the records (pushed synchronously, in order)
    parser.on('skip', (error: CsvError, raw?: string) =>
      parser.push({ error, raw: raw ?? '', emptyLines: parser.info.empty_lines } satisfies ParsedItem),
    );
    const records = pipeline(source, parser, () => undefined) as AsyncIterable<ParsedItem>;
    let end = 0; // the last physical line of the source read so far
    let empties = 0;
    let failed: { start: number; raw: string } | undefined; // the last record in error
    let rest: string | undefined;
    for await (const item of records) {
      const emptyLines = 'error' in item ? item.emptyLines : item.info.empty_lines;
      // csv-parse goes on reading a record after its first error: its raw text only grows
      const again = 'error' in item && failed !== undefined && item.raw.startsWith(failed.raw);
      const start = again ? failed!.start : end + 1 + emptyLines - empties;
      empties = emptyLines;
      if ('error' in item) {
        if (item.error.code === 'CSV_QUOTE_NOT_CLOSED') rest = afterFirstLine(item.raw);
        if (!again) yield { line: offset + start, malformed: csvErrorMessage(item.error) };
        failed = { start, raw: item.raw };
        // a dropped record is taken to end where its error was found
        end = start + lineBreaks(item.raw.replace(/^[\r\n]+/, ''));
        continue;
      }
      failed = undefined;
      yield { line: offset + start, cells: item.record };
      end = start + item.record.reduce((n, cell) => n + lineBreaks(cell), 0);
    }
    if (rest !== undefined) end = failed!.start;
    source = rest === undefined ? undefined : Readable.from([rest]);
    offset += end;
  }
}

/** NDJSON: one value per line, decoded as it streams (a character split between chunks survives). */
async function* ndjsonRows(input: Readable): AsyncGenerator<RawRow> {
  const decoder = new StringDecoder('utf8');
  let rest = '';
  let line = 0;
  const row = (text: string): RawRow | undefined => {
    line++;
    const json = (line === 1 ? text.replace(/^\uFEFF/, '') : text).replace(/\r$/, '');
    if (json.trim() === '') return undefined;
    try {
      return { line, object: JSON.parse(json) as unknown };
    } catch {
      return { line, malformed: 'Line is not valid JSON' };
    }
  };
  for await (const chunk of input as AsyncIterable<Buffer | string>) {
    const lines = (rest + (typeof chunk === 'string' ? chunk : decoder.write(chunk))).split('\n');
    rest = lines.pop()!;
    for (const text of lines) {
      const parsed = row(text);
      if (parsed) yield parsed;
    }
  }
  const last = row(rest + decoder.end());
  if (last) yield last;
}

/** The rows after the header, each checked against the header's cell count. */
async function* csvRows(records: AsyncIterator<RawRow>, width: number): AsyncGenerator<RawRow> {
  for (let next = await records.next(); !next.done; next = await records.next()) {
    const row = next.value;
    if ('cells' in row && row.cells.length !== width)
      yield { line: row.line, malformed: `Row has ${row.cells.length} cells, the header has ${width}` };
    else yield row;
  }
}

/**
 * Opens an import body: reads the CSV header (a 400 when it cannot be read) and returns it with the
 * rows after it, or the NDJSON rows. The rows are read as they are iterated, with backpressure;
 * an error of `input` rejects the iteration.
 */
export async function openImportReader(
  input: Readable,
  options: { format: ImportFormat; delimiter: string },
): Promise<ImportReader> {
  if (options.format === 'ndjson') return { rows: ndjsonRows(input) };
  const records = csvRecords(input, options.delimiter);
  const first = await records.next();
  if (first.done) return { header: [], rows: csvRows(records, 0) };
  if ('malformed' in first.value) {
    await records.return(undefined);
    throw badRequest([`The CSV header cannot be read (${first.value.malformed})`]);
  }
  const header = (first.value as { cells: string[] }).cells;
  return { header, rows: csvRows(records, header.length) };
}
