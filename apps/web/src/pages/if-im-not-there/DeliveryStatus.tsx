import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import type { DeliveryView } from '@lv/contracts';
import { errorMessage } from '../../api/client.js';
import { cancelDelivery, fetchDelivery, ifImNotThereKeys, inactivityKeys } from '../../api/if-im-not-there.js';
import { Button } from '../../components/ui/button.js';
import { formatDateTime } from '../../lib/dates.js';


/** What the owner is told about a delivery of his vault, in plain words. */
export function deliveryStatusText(view: DeliveryView): string {
  switch (view.status) {
    case 'none':
      return 'No delivery has started. Your vault stays yours until one is confirmed.';
    case 'cancelled':
      return 'The last delivery was stopped. Nothing was handed over.';
    case 'rejected':
      return 'The last delivery was stopped after its legal documents were checked. Nothing was handed over.';
    case 'awaiting-verification':
      return `A delivery started on ${formatDateTime(view.triggered_at!)}. It waits for an administrator to check legal documents; nothing is handed over before.`;
    case 'waiting':
      return `A delivery started on ${formatDateTime(view.triggered_at!)}. Your emergency contacts receive their keys on ${formatDateTime(view.due_at!)}, unless you stop it.`;
    case 'released':
      return 'Your vault has been delivered: your emergency contacts received their keys.';
  }
}

/** The delivery's state, with "I'm Still Here" while one can be stopped. */
export function DeliveryStatus() {
  const queryClient = useQueryClient();
  const delivery = useQuery({ queryKey: ifImNotThereKeys.delivery, queryFn: ({ signal }) => fetchDelivery(signal) });
  const stop = useMutation({
    mutationFn: cancelDelivery,
    onSuccess: (view) => {
      queryClient.setQueryData(ifImNotThereKeys.delivery, view);
      // It checked the owner in too: the inactivity watch counts from now.
      void queryClient.invalidateQueries({ queryKey: inactivityKeys.watch });
      toast.success('Delivery stopped', { description: 'Nothing was handed over.' });
    },
    onError: (error) => toast.error('Could not stop the delivery', { description: errorMessage(error, 'Please try again.') }),
  });
  if (!delivery.data) return null;
  const stoppable = delivery.data.status === 'waiting' || delivery.data.status === 'awaiting-verification';
  return (
    <div role="status" aria-label="Delivery status" className={`flex flex-wrap items-center gap-3 rounded-xl p-3 text-sm ${stoppable ? 'bg-destructive/10' : 'bg-muted/60'}`}>
      <p className="flex-1">{deliveryStatusText(delivery.data)}</p>
      {stoppable ? (
        <Button variant="destructive" size="sm" disabled={stop.isPending} onClick={() => stop.mutate()}>
          I&apos;m Still Here
        </Button>
      ) : null}
    </div>
  );
}
