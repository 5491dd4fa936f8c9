// Table codes as the page reads them: the page's copy of damepique.wire's
// normalize_code (tests/web/test_codes.py checks the two agree on the same inputs).

export const ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";
export const CODE_LENGTH = 8;
const CODE = new RegExp(`^[${ALPHABET}]{${CODE_LENGTH}}$`);

// The code typed by a person (any case, spaces or dashes), or null when it cannot be one.
export function normalizeCode(text) {
  if (typeof text !== "string" || text.length >= 40) return null;
  const c = text.replace(/[\s-]/g, "").toUpperCase();
  return CODE.test(c) ? c : null;
}
