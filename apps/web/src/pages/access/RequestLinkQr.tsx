import { QrCode } from '../../components/ui/qr-code.js';

/**
 * The request link as a QR code. Its own chunk: the encoder loads when the owner's link card shows,
 * never with the vault home.
 */
export function RequestLinkQr({ link }: { link: string }) {
  return <QrCode text={link} label="QR code of your request link" className="h-40 w-40" />;
}
