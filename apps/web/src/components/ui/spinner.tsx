import { LoaderCircle } from 'lucide-react';
import { cn } from '../../lib/cn.js';

/** A spinning icon; decorative unless given a label. */
export function Spinner({ className, label }: { className?: string; label?: string }) {
  if (label) {
    return (
      <span role="status" aria-label={label} className="inline-flex">
        <LoaderCircle aria-hidden="true" className={cn('h-5 w-5 animate-spin', className)} />
      </span>
    );
  }
  return <LoaderCircle aria-hidden="true" className={cn('h-5 w-5 animate-spin', className)} />;
}

/** Shown while the session loads. */
export function FullScreenSpinner() {
  return (
    <div role="status" aria-label="Loading" className="fixed inset-0 z-50 grid place-items-center bg-background">
      <div className="flex flex-col items-center gap-3 text-muted-foreground">
        <LoaderCircle aria-hidden="true" className="h-10 w-10 animate-spin text-primary" />
        <span className="text-sm">Opening your vault…</span>
      </div>
    </div>
  );
}
