import { useSyncExternalStore } from 'react';
import { useLocation } from 'react-router-dom';
import { uploadsInFlight } from '../api/uploads-in-flight.js';
import { Button } from '../components/ui/button.js';

/**
 * The saves still going on, wherever the owner is (uploads-in-flight.ts keeps them): how far each is, a lost
 * connection being retried, and a failed one with "Try again", which goes on from the last byte the
 * vault holds. The page that started a save shows its own progress and errors: it is left out there.
 */
export function UploadStatus() {
  const all = useSyncExternalStore(uploadsInFlight.subscribe, uploadsInFlight.snapshot, uploadsInFlight.snapshot);
  const { pathname } = useLocation();
  const shown = all.filter((upload) => upload.page !== pathname);
  if (!shown.length) return null;
  return (
    <section aria-label="Uploads" className="fixed right-4 bottom-4 z-50 w-72 max-w-[calc(100vw-2rem)] space-y-2">
      {shown.map((upload) => {
        const percent = upload.total ? Math.floor((upload.loaded / upload.total) * 100) : 0;
        return (
          <div key={upload.key} role="status" className="rounded-lg border border-border bg-card p-3 text-sm shadow-lg">
            <p className="truncate font-medium">{upload.title}</p>
            {upload.state === 'failed' ? (
              <div className="mt-1 flex items-center justify-between gap-2">
                <span className="text-destructive">Not saved yet.</span>
                <span className="flex gap-1">
                  <Button size="sm" variant="outline" onClick={() => upload.retry?.()}>Try again</Button>
                  <Button size="sm" variant="ghost" onClick={() => uploadsInFlight.remove(upload.key)}>Dismiss</Button>
                </span>
              </div>
            ) : (
              <>
                <p className="text-muted-foreground">{upload.state === 'reconnecting' ? 'Connection lost. Trying again…' : `Saving… ${percent}%`}</p>
                <progress className="mt-1 h-1.5 w-full" aria-label={`Saving ${upload.title}`} value={upload.loaded} max={upload.total || 1} />
              </>
            )}
          </div>
        );
      })}
    </section>
  );
}
