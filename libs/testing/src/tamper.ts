/**
 * `text` (a signature, a token's last part) with the character in its middle changed: 'A', or 'B'
 * where it was 'A'. Not an end character: the last one of a base64url string can carry unused bits,
 * so changing it may decode to the same bytes (a spec that did failed one run in 256).
 */
export function alterMiddleCharacter(text: string): string {
  if (!text) throw new Error('alterMiddleCharacter: nothing to alter');
  const middle = Math.floor(text.length / 2);
  return `${text.slice(0, middle)}${text[middle] === 'A' ? 'B' : 'A'}${text.slice(middle + 1)}`;
}
