import { stringify } from 'csv-stringify/sync';
import { StringDecoder } from 'node:string_decoder';
import { pipeline, Readable, Transform, TransformCallback } from 'node:stream';
import { isComposite } from '../fields/field-definition';
import { CollectionMeta } from '../model/collection-meta';
import type { ExportFormat } from '../query/export-query';

/** The media type of each export format. */
export const EXPORT_TYPES: Record<ExportFormat, string> = {
  ndjson: 'application/x-ndjson',
  csv: 'text/csv; charset=utf-8',
};

/** One CSV column: its header (`name.firstName` for a composite sub-field) and how a record fills it. */
interface CsvColumn {
  header: string;
  cell(record: Record<string, unknown>): string;
}

/** `null` as an empty cell; arrays, objects and every RAW_JSON value as JSON text. */
function cellText(value: unknown, json: boolean): string {
  if (value === null || value === undefined) return '';
  if (json || typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/**
 * The CSV columns of a collection's records at depth 0, in the collection's field order (id
 * first, the timestamps last), of the fields `kept`: a composite field gives one column per
 * sub-field.
 */
export function csvColumns(meta: CollectionMeta, kept: (name: string) => boolean): CsvColumn[] {
  const columns: CsvColumn[] = [{ header: 'id', cell: (r) => cellText(r.id, false) }];
  for (const field of meta.fields) {
    if (field.writeOnly || !kept(field.name)) continue;
    if (!isComposite(field.type)) {
      const json = field.type === 'RAW_JSON';
      columns.push({ header: field.name, cell: (r) => cellText(r[field.name], json) });
      continue;
    }
    for (const col of meta.columnsByField.get(field.name)!) {
      const sub = col.sub!.name;
      const json = col.type === 'RAW_JSON';
      columns.push({
        header: `${field.name}.${sub}`,
        cell: (r) => cellText((r[field.name] as Record<string, unknown> | null)?.[sub], json),
      });
    }
  }
  for (const name of ['createdAt', 'updatedAt', 'deletedAt'])
    if (kept(name)) columns.push({ header: name, cell: (r) => cellText(r[name], false) });
  return columns;
}

/**
 * CRLF records; a value holding a comma, a quote, a CR or a LF quoted (csv-stringify quotes the
 * delimiter, the quote and the record delimiter CR LF by itself, not a bare CR or LF: every RFC
 * 4180 reader would split such a record in two).
 */
export const CSV_OPTIONS = { record_delimiter: 'windows', quoted_match: /[\r\n]/ } as const;

/**
 * NDJSON bytes to CSV (RFC 4180: CRLF, a header row, quoted where needed): each chunk's complete
 * lines become records, their cells written by csv-stringify in one call per chunk.
 */
class NdjsonToCsv extends Transform {
  private readonly decoder = new StringDecoder('utf8');
  private rest = '';

  constructor(private readonly columns: CsvColumn[]) {
    super();
    this.push(stringify([columns.map((c) => c.header)], CSV_OPTIONS));
  }

  private rows(lines: string[]): string {
    const rows = lines.filter((line) => line.trim() !== '').map((line) => JSON.parse(line) as Record<string, unknown>);
    return rows.length
      ? stringify(
          rows.map((record) => this.columns.map((c) => c.cell(record))),
          CSV_OPTIONS,
        )
      : '';
  }

  override _transform(chunk: Buffer | string, _encoding: BufferEncoding, callback: TransformCallback): void {
    const lines = (this.rest + (typeof chunk === 'string' ? chunk : this.decoder.write(chunk))).split('\n');
    this.rest = lines.pop()!;
    try {
      callback(null, this.rows(lines));
    } catch (error) {
      callback(error as Error);
    }
  }

  override _flush(callback: TransformCallback): void {
    try {
      callback(null, this.rows([this.rest + this.decoder.end()]));
    } catch (error) {
      callback(error as Error);
    }
  }
}

/**
 * The bytes of an export in its format, from NDJSON bytes (one record per line): as they are, or
 * as CSV. An error of the source reaches the result, and destroying the result destroys the source
 * (which releases its connection).
 */
export function exportBytes(source: Readable, format: ExportFormat, columns: CsvColumn[]): Readable {
  if (format === 'ndjson') return source;
  // an error anywhere destroys both; so does the reader destroying the result (a client gone)
  return pipeline(source, new NdjsonToCsv(columns), () => undefined);
}
