// Text measured and cut by Unicode code points, as the contract's `maxLength` counts (JSON Schema) and as both
// stores keep text (UTF-8). JavaScript strings are UTF-16: `.slice(0, n)` can end between the two halves of a
// character outside the Basic Multilingual Plane (an emoji, 𝔘), leaving a lone surrogate that neither store can
// keep (SQLite stored bytes that read back as more characters than `maxLength`; PostgreSQL stored U+FFFD).

/** A code point outside the BMP is two UTF-16 units: a high surrogate (D800–DBFF) then a low one (DC00–DFFF). */
const isHigh = (unit: number) => unit >= 0xd800 && unit <= 0xdbff;
const isLow = (unit: number) => unit >= 0xdc00 && unit <= 0xdfff;

/** The first `max` code points of `text`: never half a character. */
export function cutToCodePoints(text: string, max: number): string {
  // At most `max` UTF-16 units is at most `max` code points: the common case costs one comparison.
  if (text.length <= max) return text;
  let end = 0;
  for (let count = 0; count < max && end < text.length; count += 1) {
    end += isHigh(text.charCodeAt(end)) && isLow(text.charCodeAt(end + 1)) ? 2 : 1;
  }
  return text.slice(0, end);
}

// In a `u` regular expression a surrogate pair is one code point, so only a lone surrogate matches.
const loneSurrogate = /\p{Cs}/u;

/** Whether `text` is well-formed Unicode: no lone UTF-16 surrogate (String.prototype.isWellFormed, ES2024). */
export const isWellFormed = (text: string): boolean => !loneSurrogate.test(text);
