import { randomBytes } from 'node:crypto';
import { deflateRawSync } from 'node:zlib';

/** A ZIP's local file headers with deflated bodies, laid out as an Office writer does (no central directory needed for sniffing). */
export function zipOf(names: string[], bodySize = 200): Buffer {
  const parts: Buffer[] = [];
  for (const name of names) {
    const data = deflateRawSync(Buffer.alloc(bodySize, 'x'));
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(8, 8);
    header.writeUInt32LE(data.length, 18);
    header.writeUInt32LE(bodySize, 22);
    header.writeUInt16LE(Buffer.byteLength(name), 26);
    parts.push(header, Buffer.from(name), data);
  }
  return Buffer.concat(parts);
}

const withTail = (head: Buffer, size: number) => Buffer.concat([head, randomBytes(Math.max(0, size - head.length))]);

/** Files of each kind as their magic numbers make them (random, so every one hashes differently). */
export const courtFiles = {
  pdf: (size = 4000) => withTail(Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1'), size),
  doc: (size = 4000) => withTail(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), size),
  docx: () => Buffer.concat([zipOf(['[Content_Types].xml', '_rels/.rels', 'word/document.xml']), randomBytes(500)]),
  jpeg: (size = 4000) => withTail(Buffer.from([0xff, 0xd8, 0xff, 0xe0]), size),
  png: (size = 4000) => withTail(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), size),
  txt: (words = 'Saturday 14 March: handover at 10:00, arrived 10:45. — Noté ✓\n') => Buffer.from(`${words}${randomBytes(8).toString('hex')}\n`),
  zip: () => Buffer.concat([zipOf(['photos/a.jpg', 'photos/b.jpg', 'notes.txt']), randomBytes(500)]),
  exe: (size = 4000) => withTail(Buffer.from('MZ\x90\x00\x03\x00\x00\x00\x04\x00', 'latin1'), size),
};
