import { qrPath } from '../../lib/qr-path.js';

/**
 * `text` as a QR code, drawn here in the browser (what it encodes goes to no QR service). Pages load it
 * lazily, as a chunk of its own: the encoder is not part of the page that shows it.
 */
export function QrCode({ text, label, className }: { text: string; label: string; className: string }) {
  const { size, d } = qrPath(text, 2);
  return (
    <svg role="img" aria-label={label} viewBox={`0 0 ${size} ${size}`} shapeRendering="crispEdges" className={`${className} shrink-0 rounded-lg border border-border`}>
      <rect width={size} height={size} fill="#fff" />
      <path d={d} fill="#000" />
    </svg>
  );
}
