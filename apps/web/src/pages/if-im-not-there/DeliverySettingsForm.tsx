import { useId, useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import {
  DELIVERY_TIMING_LABELS, DELIVERY_TIMINGS, FINAL_THOUGHTS_MAX, IfImNotThereMessages as M, TRUSTEE_NAME_MAX, type DeliverySettings, type SaveDeliverySettingsRequest,
} from '@lv/contracts';
import { errorMessage } from '../../api/client.js';
import { ifImNotThereKeys, saveDeliverySettings } from '../../api/if-im-not-there.js';
import { Button } from '../../components/ui/button.js';
import { Input, Label, Textarea } from '../../components/ui/input.js';

type Form = Omit<DeliverySettings, 'updated_at'>;
const formOf = ({ updated_at: _at, ...form }: DeliverySettings): Form => form;

const TIMING_HINTS: Record<(typeof DELIVERY_TIMINGS)[number], string> = {
  immediately: 'Your vault is handed over as soon as it is confirmed you are not there.',
  after_30_days: 'A 30-day wait first, in case it was a mistake.',
  legal_verification: 'Only after an administrator has checked legal documents.',
};

/** Vault delivery settings, saved as a whole, with the spec's defaults until the first save. */
export function DeliverySettingsForm({ saved }: { saved: DeliverySettings }) {
  const queryClient = useQueryClient();
  const ids = { trusteeName: useId(), trusteeEmail: useId(), thoughts: useId(), timing: useId() };
  const [form, setForm] = useState<Form>(() => formOf(saved));
  const [base, setBase] = useState(saved);
  // A newer save (another tab) replaces the form only when nothing here was edited.
  if (base !== saved) {
    setBase(saved);
    if (JSON.stringify(form) === JSON.stringify(formOf(base))) setForm(formOf(saved));
  }
  const set = <K extends keyof Form>(key: K, value: Form[K]) => setForm((current) => ({ ...current, [key]: value }));

  const save = useMutation({
    mutationFn: () => saveDeliverySettings(form satisfies SaveDeliverySettingsRequest),
    onSuccess: (next) => {
      queryClient.setQueryData(ifImNotThereKeys.settings, next);
      setForm(formOf(next));
      toast.success(M.settingsSaved);
    },
    onError: (error) => toast.error(M.saveSettingsFailed, { description: errorMessage(error, 'Please try again.') }),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };

  return (
    <form aria-label="Delivery Settings" noValidate onSubmit={submit} className="flex flex-col gap-6">
      <div role="radiogroup" aria-labelledby={ids.timing} className="flex flex-col gap-2">
        <p id={ids.timing} className="text-sm font-medium">
          Delivery Timing
        </p>
        {DELIVERY_TIMINGS.map((timing) => (
          <label key={timing} className="flex cursor-pointer items-start gap-3 rounded-xl border border-border p-3 has-[:checked]:border-primary has-[:checked]:bg-primary/5">
            <input
              type="radio"
              name="delivery_timing"
              className="mt-1"
              checked={form.delivery_timing === timing}
              aria-labelledby={`${ids.timing}-${timing}`}
              aria-describedby={`${ids.timing}-${timing}-hint`}
              onChange={() => set('delivery_timing', timing)}
            />
            <span>
              <span id={`${ids.timing}-${timing}`} className="block font-medium">
                {DELIVERY_TIMING_LABELS[timing]}
              </span>
              <span id={`${ids.timing}-${timing}-hint`} className="block text-sm text-muted-foreground">
                {TIMING_HINTS[timing]}
              </span>
            </span>
          </label>
        ))}
      </div>

      <div className="flex flex-col gap-3">
        <Check label="Require legal verification" hint="Admin-only access, with legal documentation." checked={form.require_legal_verification} onChange={(v) => set('require_legal_verification', v)} />
        <Check label="Allow preview" hint="The people you give a key may see your final thoughts are there before delivery." checked={form.allow_preview} onChange={(v) => set('allow_preview', v)} />
        <Check label="Notify trustee" hint="Your trustee is told when delivery begins." checked={form.notify_trustee} onChange={(v) => set('notify_trustee', v)} />
      </div>

      <div className="grid gap-4 sm:grid-cols-2">
        <div className="flex flex-col gap-2">
          <Label htmlFor={ids.trusteeName}>Trustee Name</Label>
          <Input id={ids.trusteeName} maxLength={TRUSTEE_NAME_MAX} value={form.trustee_name} data-saved-value={saved.trustee_name} onChange={(e) => set('trustee_name', e.target.value)} />
        </div>
        <div className="flex flex-col gap-2">
          <Label htmlFor={ids.trusteeEmail}>Trustee Email</Label>
          <Input id={ids.trusteeEmail} type="email" value={form.trustee_email} data-saved-value={saved.trustee_email} onChange={(e) => set('trustee_email', e.target.value)} />
        </div>
      </div>

      <div className="flex flex-col gap-2">
        <Label htmlFor={ids.thoughts}>Final Thoughts</Label>
        <Textarea id={ids.thoughts} rows={5} maxLength={FINAL_THOUGHTS_MAX} value={form.final_thoughts} data-saved-value={saved.final_thoughts} onChange={(e) => set('final_thoughts', e.target.value)} />
      </div>

      <Button type="submit" className="self-start" disabled={save.isPending}>
        {save.isPending ? 'Saving…' : 'Save Settings'}
      </Button>
    </form>
  );
}

function Check({ label, hint, checked, onChange }: { label: string; hint: string; checked: boolean; onChange: (checked: boolean) => void }) {
  const hintId = useId();
  const labelId = useId();
  return (
    <label className="flex cursor-pointer items-start gap-3">
      <input type="checkbox" className="mt-1" checked={checked} aria-labelledby={labelId} aria-describedby={hintId} onChange={(e) => onChange(e.target.checked)} />
      <span>
        <span id={labelId} className="block font-medium">
          {label}
        </span>
        <span id={hintId} className="block text-sm text-muted-foreground">
          {hint}
        </span>
      </span>
    </label>
  );
}
