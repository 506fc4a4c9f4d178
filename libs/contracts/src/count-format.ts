/**
 * A whole number with its thousands grouped as British English writes them: 100000 → "100,000", the
 * same as `n.toLocaleString('en-GB')`. For the limits quoted in messages built when a module loads:
 * the first `toLocaleString` call loads the browser's number-formatting data, about 15 ms of main
 * thread on this machine's Chromium and four times that on a mid-range phone, during every page's
 * start-up (issue 10, first load).
 */
export function formatCount(n: number): string {
  if (!Number.isSafeInteger(n)) return n.toLocaleString('en-GB');
  const digits = String(Math.abs(n));
  const grouped = digits.replace(/\B(?=(\d{3})+$)/g, ',');
  return n < 0 ? `-${grouped}` : grouped;
}
