import type { Readable } from 'node:stream';
import sharp, { type Sharp } from 'sharp';
import { MediaMessages } from '@lv/contracts';
import { DomainError } from '@lv/platform/errors';

/**
 * The image formats the vault keeps (UPLOADED_CONTENT_TYPES.image), each re-encoded as itself: the
 * content type a viewer is told stays true. JPEG and WebP at a quality where the re-encoding does not
 * show; PNG is lossless; GIF and WebP keep their frames.
 */
const ENCODERS: Record<string, (image: Sharp) => Sharp> = {
  'image/jpeg': (image) => image.jpeg({ quality: 92 }),
  'image/png': (image) => image.png(),
  'image/webp': (image) => image.webp({ quality: 92 }),
  'image/gif': (image) => image.gif(),
};

/**
 * A picture as a family viewer sees it: the pixels and nothing else. sharp writes no metadata unless
 * asked to, so EXIF (camera, phone model, dates), its GPS block, XMP, IPTC and the ICC profile (turned
 * into sRGB) are all left behind; the EXIF orientation is applied to the pixels first, so the picture
 * stands as it did. The stored original is untouched: the owner and the export keep everything.
 * A file sharp cannot read is refused in words rather than served with its metadata.
 */
export async function imageWithoutMetadata(original: Readable, contentType: string): Promise<Buffer> {
  const encode = ENCODERS[contentType];
  if (!encode) throw new DomainError('UNSUPPORTED_MEDIA', MediaMessages.pictureUnreadable);
  const bytes = Buffer.concat(await original.toArray());
  try {
    return await encode(sharp(bytes, { animated: true }).rotate()).toBuffer();
  } catch {
    throw new DomainError('UNSUPPORTED_MEDIA', MediaMessages.pictureUnreadable);
  }
}
