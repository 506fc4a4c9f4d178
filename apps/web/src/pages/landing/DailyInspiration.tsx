import { useEffect, useState } from 'react';
import { Quote as QuoteIcon, RefreshCw } from 'lucide-react';
import { Button } from '../../components/ui/button.js';
import { FATHER_QUOTES, nextQuoteIndex, QUOTE_ROTATION_MS, randomQuoteIndex } from './quotes.js';

/** A random father quote that changes every 10 seconds, or at once with "New Quote". */
export function DailyInspiration() {
  // Hydrating the prerendered landing page: keep the quote it shows (a new pick would not match it).
  const [index, setIndex] = useState(() => prerenderedQuoteIndex() ?? randomQuoteIndex(FATHER_QUOTES.length));
  // Restart the 10-second rhythm whenever the quote changes (also after "New Quote").
  useEffect(() => {
    const timer = window.setTimeout(() => setIndex((i) => nextQuoteIndex(i, FATHER_QUOTES.length)), QUOTE_ROTATION_MS);
    return () => window.clearTimeout(timer);
  }, [index]);
  const quote = FATHER_QUOTES[index] ?? FATHER_QUOTES[0]!;

  return (
    <section aria-labelledby="daily-inspiration" className="mx-auto max-w-3xl px-4">
      <div className="rounded-3xl border border-border bg-card p-8 text-center shadow-sm sm:p-10">
        <h2 id="daily-inspiration" className="text-sm font-semibold tracking-widest text-primary uppercase">
          Daily Inspiration
        </h2>
        <figure className="mt-5" data-testid="daily-quote" data-quote-index={index}>
          <QuoteIcon aria-hidden="true" className="mx-auto h-8 w-8 text-primary/40" />
          <blockquote key={index} className="animate-fade-in mt-3 font-serif text-2xl leading-snug text-balance sm:text-3xl">
            <p>“{quote.text}”</p>
          </blockquote>
          <figcaption className="mt-4 text-sm text-muted-foreground">— {quote.author}</figcaption>
        </figure>
        <Button variant="outline" className="mt-6" onClick={() => setIndex((i) => nextQuoteIndex(i, FATHER_QUOTES.length))}>
          <RefreshCw aria-hidden="true" className="h-4 w-4" />
          New Quote
        </Button>
      </div>
    </section>
  );
}

function prerenderedQuoteIndex(): number | null {
  if (typeof document === 'undefined') return null;
  const shown = document.querySelector<HTMLElement>('[data-quote-index]')?.dataset.quoteIndex;
  const index = shown === undefined ? NaN : Number(shown);
  return Number.isInteger(index) && index >= 0 && index < FATHER_QUOTES.length ? index : null;
}
