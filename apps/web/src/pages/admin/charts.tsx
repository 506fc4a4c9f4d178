import { useId } from 'react';
import { formatCalendarDay } from '../../lib/dates.js';

export interface Point {
  /** A UTC day, YYYY-MM-DD. */
  day: string;
  value: number;
}

const WIDTH = 600;
const HEIGHT = 200;
const PAD = { top: 12, right: 12, bottom: 28, left: 56 };

/** Days from the first to the last point, the missing ones filled with `fill` (0, or the running total before them). */
export function fillDays(points: readonly Point[], carry = false): Point[] {
  if (!points.length) return [];
  const byDay = new Map(points.map((p) => [p.day, p.value]));
  const out: Point[] = [];
  const last = Date.parse(`${points[points.length - 1]!.day}T00:00:00Z`);
  let previous = 0;
  for (let t = Date.parse(`${points[0]!.day}T00:00:00Z`); t <= last; t += 86_400_000) {
    const day = new Date(t).toISOString().slice(0, 10);
    const value = byDay.get(day) ?? (carry ? previous : 0);
    out.push({ day, value });
    previous = value;
  }
  return out;
}

export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}

/**
 * A small SVG chart of values per day (bars, or a line for a running total). The picture is for the
 * eye; screen readers get its summary as the image's name and the figures in a table beside it.
 */
export function DayChart({ title, points, kind, format = String }: { title: string; points: readonly Point[]; kind: 'bars' | 'line'; format?: (value: number) => string }) {
  const titleId = useId();
  if (!points.length) return <p className="text-sm text-muted-foreground">No data yet.</p>;
  const max = Math.max(...points.map((p) => p.value), 1);
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const x = (i: number) => PAD.left + (points.length === 1 ? plotW / 2 : (i / (points.length - 1)) * plotW);
  const y = (v: number) => PAD.top + plotH - (v / max) * plotH;
  const barW = Math.max(2, Math.min(24, plotW / points.length - 2));
  const first = points[0]!;
  const last = points[points.length - 1]!;
  const summary = `${title}: ${points.length} ${points.length === 1 ? 'day' : 'days'} from ${formatCalendarDay(first.day)} to ${formatCalendarDay(last.day)}; highest ${format(max)}; latest ${format(last.value)}.`;
  return (
    <figure className="flex flex-col gap-2">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby={titleId} className="h-auto w-full text-primary">
        <title id={titleId}>{summary}</title>
        <line x1={PAD.left} x2={WIDTH - PAD.right} y1={PAD.top + plotH} y2={PAD.top + plotH} className="stroke-border" />
        <text x={PAD.left - 6} y={PAD.top + 4} textAnchor="end" className="fill-muted-foreground text-[11px]">{format(max)}</text>
        <text x={PAD.left - 6} y={PAD.top + plotH} textAnchor="end" className="fill-muted-foreground text-[11px]">0</text>
        <text x={PAD.left} y={HEIGHT - 8} className="fill-muted-foreground text-[11px]">{formatCalendarDay(first.day)}</text>
        <text x={WIDTH - PAD.right} y={HEIGHT - 8} textAnchor="end" className="fill-muted-foreground text-[11px]">{formatCalendarDay(last.day)}</text>
        {kind === 'bars' ? (
          points.map((p, i) => <rect key={p.day} x={x(i) - barW / 2} y={y(p.value)} width={barW} height={PAD.top + plotH - y(p.value)} className="fill-current" />)
        ) : (
          <polyline fill="none" strokeWidth={2} className="stroke-current" points={points.map((p, i) => `${x(i)},${y(p.value)}`).join(' ')} />
        )}
      </svg>
      <figcaption className="sr-only">
        <table>
          <caption>{title}</caption>
          <thead>
            <tr><th scope="col">Day</th><th scope="col">Value</th></tr>
          </thead>
          <tbody>
            {points.filter((p) => p.value > 0 || kind === 'line').slice(-60).map((p) => (
              <tr key={p.day}><td>{formatCalendarDay(p.day)}</td><td>{format(p.value)}</td></tr>
            ))}
          </tbody>
        </table>
      </figcaption>
    </figure>
  );
}
