import { qrPath } from '../../lib/qr-path.js';

/** The authenticator app's set-up as a QR code, drawn here in the browser (the secret goes to no QR service). Its own chunk. */
export function TwoStepQr({ uri }: { uri: string }) {
  const { size, d } = qrPath(uri, 2);
  return (
    <svg
      role="img"
      aria-label="QR code to scan with your authenticator app"
      viewBox={`0 0 ${size} ${size}`}
      shapeRendering="crispEdges"
      className="h-48 w-48 shrink-0 rounded-lg border border-border"
    >
      <rect width={size} height={size} fill="#fff" />
      <path d={d} fill="#000" />
    </svg>
  );
}
