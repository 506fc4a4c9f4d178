import { useId, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { VIEWER_CONSENT_TEXT } from '@lv/contracts';
import { accessKeys, fetchConsent } from '../../api/access.js';
import { Button } from '../../components/ui/button.js';
import { ModalFrame } from '../../components/ui/modal.js';

/**
 * The Viewer Disclaimer (spec 2 and 6): the consent text, 'I understand and agree.', Cancel and Continue
 * (disabled until the box is ticked). The text shown is the one the server records with the consent.
 */
export function ViewerDisclaimer({ open, onCancel, onContinue }: { open: boolean; onCancel: () => void; onContinue: () => void }) {
  const [agreed, setAgreed] = useState(false);
  const checkboxId = useId();
  const consent = useQuery({ queryKey: accessKeys.consent, queryFn: ({ signal }) => fetchConsent(signal), enabled: open, staleTime: Infinity });
  const close = () => {
    setAgreed(false);
    onCancel();
  };
  return (
    <ModalFrame open={open} onOpenChange={(next) => !next && close()} title="Viewer Disclaimer" description="Please read this before you view the vault." widthClass="max-w-lg">
      <p className="text-sm leading-relaxed whitespace-pre-line">{consent.data?.text ?? VIEWER_CONSENT_TEXT}</p>
      <div className="mt-4 flex items-center gap-2">
        <input id={checkboxId} type="checkbox" className="h-4 w-4" checked={agreed} onChange={(e) => setAgreed(e.target.checked)} />
        <label htmlFor={checkboxId} className="text-sm font-medium">I understand and agree.</label>
      </div>
      <div className="mt-6 flex justify-end gap-2">
        <Button variant="outline" onClick={close}>Cancel</Button>
        <Button
          disabled={!agreed}
          onClick={() => {
            setAgreed(false);
            onContinue();
          }}
        >
          Continue
        </Button>
      </div>
    </ModalFrame>
  );
}
