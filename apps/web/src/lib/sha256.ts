/** SHA-256 as hex, with the browser's Web Crypto (a secure context: https or 127.0.0.1). */
export async function sha256Hex(data: BufferSource | string, purpose: string): Promise<string> {
  if (!globalThis.crypto?.subtle) throw new Error(`This browser cannot ${purpose} here (Web Crypto needs https).`);
  const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
  const digest = await crypto.subtle.digest('SHA-256', bytes);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}
