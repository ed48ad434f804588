/**
 * Username rules from DESIGN ("Usernames"): trim, strip one leading `@`, lower-case; valid
 * names match ^[a-z0-9_]{1,64}$. The build indexes with these functions and the server looks
 * up with them, so both sides always agree on what a username is.
 */
const MAX_USERNAME_LENGTH = 64;

export type UsernameRejection = "empty" | "too_long" | "invalid_characters";

const VALID = new RegExp(`^[a-z0-9_]{1,${MAX_USERNAME_LENGTH}}$`);
const ALLOWED_CHARS = /^[a-z0-9_]*$/;

export function normalizeUsername(raw: string): string {
  const trimmed = raw.trim();
  return (trimmed.startsWith("@") ? trimmed.slice(1) : trimmed).toLowerCase();
}

export function isValidUsername(normalized: string): boolean {
  return VALID.test(normalized);
}

/** Why a normalised username is not valid, or null when it is. */
export function getUsernameRejection(normalized: string): UsernameRejection | null {
  if (VALID.test(normalized)) return null;
  if (normalized.length === 0) return "empty";
  if (!ALLOWED_CHARS.test(normalized)) return "invalid_characters";
  return "too_long";
}

const REJECTION_DETAIL: Record<UsernameRejection, string> = {
  empty: "is empty",
  too_long: `is longer than ${MAX_USERNAME_LENGTH} characters`,
  invalid_characters: "may contain only letters a-z, digits and underscores (after an optional leading @)",
};

/** A rejection in words, to follow the field's name in an error's detail ("username is empty"). */
export function describeUsernameRejection(rejection: UsernameRejection): string {
  return REJECTION_DETAIL[rejection];
}

/**
 * Why a normalised identifier is no username, in the words of the check routes ("username is
 * empty"): the GET's 422 and the bulk check's per-item error say exactly this. Null when valid.
 */
export function explainUsernameRejection(normalized: string): string | null {
  const rejection = getUsernameRejection(normalized);
  return rejection && `username ${REJECTION_DETAIL[rejection]}`;
}
