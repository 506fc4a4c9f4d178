import { create } from 'qrcode';

/**
 * The SVG path of a QR code's dark modules, one unit square each, `margin` units in from the edge:
 * drawn in the browser, so what it encodes (a request link, an authenticator secret) goes to no QR
 * service. Imported only by lazily loaded components, so the encoder never weighs on a first load.
 */
export function qrPath(text: string, margin: number): { size: number; d: string } {
  const { modules } = create(text, { errorCorrectionLevel: 'M' });
  let d = '';
  for (let row = 0; row < modules.size; row++) {
    for (let col = 0; col < modules.size; col++) {
      if (modules.get(row, col)) d += `M${col + margin} ${row + margin}h1v1h-1z`;
    }
  }
  return { size: modules.size + 2 * margin, d };
}
