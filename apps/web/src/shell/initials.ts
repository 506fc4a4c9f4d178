/**
 * The avatar's fallback text (owner-core spec, section 2): initials from full_name (first and last
 * word), otherwise the first letter of the email, otherwise "U".
 */
export function getInitials(fullName: string | null | undefined, email: string | null | undefined): string {
  const words = (fullName ?? '').trim().split(/\s+/).filter(Boolean);
  if (words.length > 0) {
    const first = Array.from(words[0]!)[0] ?? '';
    const last = words.length > 1 ? (Array.from(words[words.length - 1]!)[0] ?? '') : '';
    const initials = `${first}${last}`.toLocaleUpperCase();
    if (initials) return initials;
  }
  const letter = Array.from((email ?? '').trim())[0];
  return letter ? letter.toLocaleUpperCase() : 'U';
}

/** The first name for greetings ("Welcome Back, Sam"), or null. */
export function firstName(fullName: string | null | undefined): string | null {
  const first = (fullName ?? '').trim().split(/\s+/)[0];
  return first ? first : null;
}
