import { qrPath } from '../../lib/qr-path.js';

/**
 * The request link as a QR code, drawn here in the browser (the link goes to no QR service). Its own
 * chunk: the encoder loads when the owner's link card shows, never with the vault home.
 */
export function RequestLinkQr({ link }: { link: string }) {
  const { size, d } = qrPath(link, 2);
  return (
    <svg
      role="img"
      aria-label="QR code of your request link"
      viewBox={`0 0 ${size} ${size}`}
      shapeRendering="crispEdges"
      className="h-40 w-40 shrink-0 rounded-lg border border-border"
    >
      <rect width={size} height={size} fill="#fff" />
      <path d={d} fill="#000" />
    </svg>
  );
}
