import { connect } from 'node:net';

/** What a slow client saw: the bytes the server wrote, and when it closed the connection. */
export interface HeldConnection {
  /** What the server wrote before closing (latin1). */
  answer: string;
  /** Milliseconds from the first byte sent until the server closed the connection; null when it never did. */
  closedAfterMs: number | null;
}

/**
 * Plays a slow or stalled HTTP client on a raw connection: sends `first`, then `drip` every 150 ms
 * (if given), and resolves when the server closes the connection, or after `waitMs`.
 */
export function holdConnection(port: number, first: string | Buffer, drip: string | null, waitMs = 20_000): Promise<HeldConnection> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const started = Date.now();
    let answer = '';
    let timer: NodeJS.Timeout | undefined;
    const giveUp = setTimeout(() => finish(null), waitMs);
    function finish(closedAfterMs: number | null) {
      clearInterval(timer);
      clearTimeout(giveUp);
      socket.destroy();
      resolve({ answer, closedAfterMs });
    }
    socket.on('data', (chunk: Buffer) => { answer += chunk.toString('latin1'); });
    socket.on('close', () => finish(Date.now() - started));
    socket.on('error', () => undefined);
    socket.write(first);
    if (drip) timer = setInterval(() => { if (!socket.destroyed) socket.write(drip); }, 150);
  });
}
