/** Daily Inspiration (owner-core spec, section 2 "Landing page"): 8 fixed quotes about fathers. */
export interface Quote {
  text: string;
  author: string;
}

export const FATHER_QUOTES: readonly Quote[] = [
  { text: 'It is a wise father that knows his own child.', author: 'William Shakespeare, The Merchant of Venice' },
  { text: 'One father is more than a hundred schoolmasters.', author: 'George Herbert' },
  { text: 'The heart of a father is the masterpiece of nature.', author: 'Abbé Prévost' },
  { text: 'To her, the name of father was another name for love.', author: 'Fanny Fern' },
  { text: "My father didn't tell me how to live; he lived, and let me watch him do it.", author: 'Clarence Budington Kelland' },
  { text: 'Blessed indeed is the man who hears many gentle voices call him father!', author: 'Lydia Maria Child' },
  { text: "I cannot think of any need in childhood as strong as the need for a father's protection.", author: 'Sigmund Freud' },
  { text: 'Noble fathers have noble children.', author: 'Euripides' },
];

export const QUOTE_ROTATION_MS = 10_000;

/** A random index in [0, length). */
export function randomQuoteIndex(length: number, random: () => number = Math.random): number {
  if (length <= 0) return 0;
  return Math.min(length - 1, Math.floor(random() * length));
}

/** A random index different from `current` (when there is more than one quote). */
export function nextQuoteIndex(current: number, length: number, random: () => number = Math.random): number {
  if (length <= 1) return 0;
  const offset = 1 + Math.min(length - 2, Math.floor(random() * (length - 1)));
  return (current + offset) % length;
}
