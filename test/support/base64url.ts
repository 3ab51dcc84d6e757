/** The base64url alphabet (RFC 4648 section 5), each character at its 6-bit value. */
const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** `text` with the character at `at` replaced by the one whose value is `change(value)`. */
export function withCharacter(text: string, at: number, change: (value: number) => number): string {
  return text.slice(0, at) + BASE64URL[change(BASE64URL.indexOf(text[at])) & 63] + text.slice(at + 1);
}

/**
 * Another spelling of the same bytes: the last character's lowest bit flipped. Unpadded base64url
 * of a length that is not a multiple of 3 leaves that bit out of the bytes (16 bytes: 22
 * characters, 4 unused bits; 32 bytes: 43 characters, 2), so it decodes to the same bytes.
 */
export function respelled(text: string): string {
  return withCharacter(text, text.length - 1, (value) => value ^ 1);
}
