import { QrCode } from '../../components/ui/qr-code.js';

/** The authenticator app's set-up (its secret) as a QR code. Its own chunk. */
export function TwoStepQr({ uri }: { uri: string }) {
  return <QrCode text={uri} label="QR code to scan with your authenticator app" className="h-48 w-48" />;
}
