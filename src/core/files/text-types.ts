import { lookup } from 'mime-types';

/** The type of a file that is UTF-8 text, when its name says nothing more precise. */
export const PLAIN_TEXT_TYPE = 'text/plain; charset=utf-8';

/**
 * The text types a file name's extension may give (looked up in mime-db, through mime-types):
 * passive formats only. Anything else that is text is `text/plain` — whatever its extension,
 * never a type a browser would run or render as a page (`text/html`, `image/svg+xml`,
 * `text/javascript`, `application/xhtml+xml`, XML with its stylesheets...).
 */
const PASSIVE_TEXT_TYPES: ReadonlySet<string> = new Set([
  'text/plain',
  'text/csv',
  'text/tab-separated-values',
  'text/markdown',
  'text/calendar',
  'text/vcard',
  'application/json',
]);

/**
 * The media type of a UTF-8 text file named `fileName`: the passive text type of its extension
 * (`text/csv; charset=utf-8`, `application/json`...), else `text/plain; charset=utf-8`. The
 * `text/*` types carry `charset=utf-8`; `application/json` is UTF-8 by definition (RFC 8259).
 */
export function textTypeFor(fileName?: string): string {
  const type = fileName ? lookup(fileName) : false;
  if (!type || !PASSIVE_TEXT_TYPES.has(type)) return PLAIN_TEXT_TYPE;
  return type.startsWith('text/') ? `${type}; charset=utf-8` : type;
}

/**
 * Whether a stream of bytes, fed chunk by chunk, is UTF-8 text: valid UTF-8 (a character may be
 * split across chunks), no NUL byte, not empty. Nothing is kept but the decoder's few bytes of
 * an unfinished character; once a chunk disproves it, the later ones are not looked at.
 */
export class TextCheck {
  private readonly decoder = new TextDecoder('utf-8', { fatal: true });
  private possible = true;
  private seen = false;

  /** Looks at the next bytes. */
  feed(chunk: Uint8Array): void {
    if (!this.possible || chunk.length === 0) return;
    this.seen = true;
    if (chunk.includes(0)) return this.disprove();
    try {
      this.decoder.decode(chunk, { stream: true });
    } catch {
      this.disprove();
    }
  }

  /** Once every byte was fed: true when they are all text (no character left unfinished). */
  end(): boolean {
    if (!this.possible || !this.seen) return false;
    try {
      this.decoder.decode();
      return true;
    } catch {
      return false;
    } finally {
      this.possible = false;
    }
  }

  private disprove(): void {
    this.possible = false;
  }
}
