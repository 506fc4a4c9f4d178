import { useId, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { CONSENT_VERSION, VIEWER_CONSENT_TEXT } from '@lv/contracts';
import { accessKeys, fetchConsent } from '../../api/access.js';
import { Button } from '../../components/ui/button.js';
import { ModalFrame } from '../../components/ui/modal.js';
import { consentFor, rememberConsent } from './viewer-session.js';

/**
 * The Viewer Disclaimer (spec 2 and 6): the consent text, 'I understand and agree.', Cancel and Continue
 * (disabled until the box is ticked). The text is the server's (this build's copy until it arrives);
 * Continue remembers the SHA-256 of the very text shown, which redemption sends with the key.
 */
export function ViewerDisclaimer({ open, onCancel, onContinue }: { open: boolean; onCancel: () => void; onContinue: () => void }) {
  const [agreed, setAgreed] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const checkboxId = useId();
  const consent = useQuery({ queryKey: accessKeys.consent, queryFn: ({ signal }) => fetchConsent(signal), enabled: open, staleTime: Infinity, retry: false });
  const shown = consent.data ?? { text: VIEWER_CONSENT_TEXT, version: CONSENT_VERSION };
  const reset = () => {
    setAgreed(false);
    setProblem(null);
  };
  const cancel = () => {
    reset();
    onCancel();
  };
  const accept = async () => {
    try {
      rememberConsent(await consentFor(shown.text, shown.version));
    } catch (error) {
      return setProblem(error instanceof Error ? error.message : String(error));
    }
    reset();
    onContinue();
  };
  return (
    <ModalFrame open={open} onOpenChange={(next) => !next && cancel()} title="Viewer Disclaimer" description="Please read this before you view the vault." widthClass="max-w-lg">
      <p className="text-sm leading-relaxed whitespace-pre-line">{shown.text}</p>
      <div className="mt-4 flex items-center gap-2">
        <input id={checkboxId} type="checkbox" className="h-4 w-4" checked={agreed} onChange={(e) => setAgreed(e.target.checked)} />
        <label htmlFor={checkboxId} className="text-sm font-medium">I understand and agree.</label>
      </div>
      {problem && <p role="alert" className="mt-3 text-sm text-destructive">{problem}</p>}
      <div className="mt-6 flex justify-end gap-2">
        <Button variant="outline" onClick={cancel}>Cancel</Button>
        <Button disabled={!agreed} onClick={() => void accept()}>Continue</Button>
      </div>
    </ModalFrame>
  );
}
