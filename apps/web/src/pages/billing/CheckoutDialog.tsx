import { planOf, type PaidTier } from '@lv/contracts';
import { ModalFrame } from '../../components/ui/modal.js';
import { CheckoutPanel } from './CheckoutPages.js';

/**
 * The checkout in a dialog over the pricing page (spec 02: "a promo code is prefilled in the dialog
 * variant"), opened by a pricing link that carries a code (/pricing?promo=CODE): the plan, the code,
 * and the way to the provider's secure page.
 */
export function CheckoutDialog({ tier, promo, onClose }: { tier: PaidTier | null; promo: string; onClose: () => void }) {
  const plan = tier ? planOf(tier) : null;
  return (
    <ModalFrame open={tier !== null} onOpenChange={(open) => !open && onClose()} title="Checkout" widthClass="max-w-md"
      description={plan ? `${plan.name}, with your promo code.` : ''}>
      {tier ? (
        <div className="flex flex-col gap-4">
          <CheckoutPanel tier={tier} promo={promo} />
        </div>
      ) : null}
    </ModalFrame>
  );
}
