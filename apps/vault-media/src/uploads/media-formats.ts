/**
 * Whether a file's first bytes are the format its content type names (magic numbers, never the
 * file's name): true or false as soon as the bytes that arrived decide it, 'more' while they could
 * still become it.
 *
 *   WebM (video, audio)           1A 45 DF A3 (EBML)
 *   MP4, MOV, M4A                 'ftyp' at offset 4
 *   JPEG FF D8 FF    PNG 89 50 4E 47 0D 0A 1A 0A    GIF 'GIF87a' | 'GIF89a'    WebP 'RIFF' .... 'WEBP'
 *   MP3 'ID3' (a tag) or an MPEG frame sync (FF Ex)  WAV 'RIFF' .... 'WAVE'    OGG 'OggS'
 */

/** One byte of a signature: exact, or the bits a mask keeps. */
type SignatureByte = number | { mask: number; value: number };
/** Bytes at offsets; a format is one of several such signatures. */
type Signature = [offset: number, bytes: SignatureByte[]][];

const text = (s: string) => s.split('').map((c) => c.charCodeAt(0));
const EBML: Signature = [[0, [0x1a, 0x45, 0xdf, 0xa3]]];
const ISO_MEDIA: Signature = [[4, text('ftyp')]];

const SIGNATURES: Record<string, Signature[]> = {
  'video/webm': [EBML],
  'audio/webm': [EBML],
  'video/mp4': [ISO_MEDIA],
  'video/quicktime': [ISO_MEDIA],
  'audio/mp4': [ISO_MEDIA],
  'image/jpeg': [[[0, [0xff, 0xd8, 0xff]]]],
  'image/png': [[[0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]]]],
  'image/gif': [[[0, text('GIF87a')]], [[0, text('GIF89a')]]],
  'image/webp': [[[0, text('RIFF')], [8, text('WEBP')]]],
  'audio/wav': [[[0, text('RIFF')], [8, text('WAVE')]]],
  'audio/ogg': [[[0, text('OggS')]]],
  'audio/mpeg': [[[0, text('ID3')]], [[0, [0xff, { mask: 0xe0, value: 0xe0 }]]]],
};

function verdictOf(signature: Signature, head: Uint8Array): boolean | 'more' {
  let complete = true;
  for (const [offset, bytes] of signature) {
    for (const [i, expected] of bytes.entries()) {
      const actual = head[offset + i];
      if (actual === undefined) {
        complete = false;
        continue;
      }
      const ok = typeof expected === 'number' ? actual === expected : (actual & expected.mask) === expected.value;
      if (!ok) return false;
    }
  }
  return complete ? true : 'more';
}

export function matchesFormat(contentType: string, head: Uint8Array, ended = false): boolean | 'more' {
  const verdicts = (SIGNATURES[contentType] ?? []).map((signature) => verdictOf(signature, head));
  if (verdicts.includes(true)) return true;
  // A file that ended before its signature did is not the format.
  return verdicts.includes('more') && !ended ? 'more' : false;
}
