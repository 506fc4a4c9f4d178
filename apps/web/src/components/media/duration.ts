/** A recording's length as a player shows it: 0:07, 1:05, 1:02:05. */
export function formatDuration(seconds: number): string {
  const total = Math.round(seconds);
  const [h, m, s] = [Math.floor(total / 3600), Math.floor((total % 3600) / 60), total % 60];
  const pad = (n: number) => String(n).padStart(2, '0');
  return h ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}`;
}

/** The same length for a <time dateTime>: PT65S. */
export const durationAttribute = (seconds: number) => `PT${Math.round(seconds)}S`;
