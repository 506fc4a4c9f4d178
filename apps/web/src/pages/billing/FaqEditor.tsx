import { useId, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { BillingMessages, FAQ_ANSWER_MAX, FAQ_QUESTION_MAX, type FaqEntry, type SaveFaqRequest } from '@lv/contracts';
import { errorMessage } from '../../api/client.js';
import { billingKeys, fetchAllFaq, saveFaq } from '../../api/billing.js';
import { Button } from '../../components/ui/button.js';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.js';
import { Input, Label, Textarea } from '../../components/ui/input.js';
import { LoadFailed } from '../../components/ui/load-failed.js';
import { Spinner } from '../../components/ui/spinner.js';

type Draft = Omit<SaveFaqRequest, 'id'>;

/** What is wrong with a draft, in the form's words; null when it can be saved. */
export function faqDraftError(draft: Draft): string | null {
  if (!draft.question.trim()) return BillingMessages.faqQuestionRequired;
  if (!draft.answer.trim()) return BillingMessages.faqAnswerRequired;
  if (draft.question.trim().length > FAQ_QUESTION_MAX) return `A question can be at most ${FAQ_QUESTION_MAX} characters.`;
  if (draft.answer.trim().length > FAQ_ANSWER_MAX) return `An answer can be at most ${FAQ_ANSWER_MAX.toLocaleString('en-GB')} characters.`;
  return null;
}

function FaqForm({ entry, nextOrder, onSaved }: { entry?: FaqEntry; nextOrder: number; onSaved?: () => void }) {
  const ids = { question: useId(), answer: useId(), order: useId(), active: useId() };
  const queryClient = useQueryClient();
  const blank: Draft = { question: '', answer: '', is_active: true, display_order: nextOrder };
  const [draft, setDraft] = useState<Draft>(entry ? { question: entry.question, answer: entry.answer, is_active: entry.is_active, display_order: entry.display_order } : blank);
  const save = useMutation({
    mutationFn: () => saveFaq({ ...draft, ...(entry ? { id: entry.id } : {}) }),
    onSuccess: async () => {
      toast.success(BillingMessages.faqSaved);
      if (!entry) setDraft({ ...blank, display_order: nextOrder + 1 });
      onSaved?.();
      await queryClient.invalidateQueries({ queryKey: billingKeys.faq });
    },
    onError: (error) => toast.error(BillingMessages.faqSaveFailed, { description: errorMessage(error, 'Please try again.') }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problem = faqDraftError(draft);
    if (problem) {
      toast.error(BillingMessages.faqSaveFailed, { description: problem });
      return;
    }
    save.mutate();
  };
  const label = entry ? `FAQ entry: ${entry.question}` : 'New FAQ entry';
  return (
    <form aria-label={label} onSubmit={submit} className="flex flex-col gap-3 rounded-xl border border-border p-4">
      <div className="flex flex-col gap-1">
        <Label htmlFor={ids.question}>Question</Label>
        <Input id={ids.question} value={draft.question} maxLength={FAQ_QUESTION_MAX} onChange={(e) => setDraft({ ...draft, question: e.target.value })} />
      </div>
      <div className="flex flex-col gap-1">
        <Label htmlFor={ids.answer}>Answer</Label>
        <Textarea id={ids.answer} rows={3} value={draft.answer} maxLength={FAQ_ANSWER_MAX} onChange={(e) => setDraft({ ...draft, answer: e.target.value })} />
      </div>
      <div className="flex flex-wrap items-end gap-4">
        <div className="flex flex-col gap-1">
          <Label htmlFor={ids.order}>Display order</Label>
          <Input id={ids.order} type="number" min={0} max={10000} className="w-28" value={draft.display_order}
            onChange={(e) => setDraft({ ...draft, display_order: Math.max(0, Math.min(10_000, Math.trunc(Number(e.target.value) || 0))) })} />
        </div>
        <label htmlFor={ids.active} className="flex items-center gap-2 text-sm">
          <input id={ids.active} type="checkbox" checked={draft.is_active} onChange={(e) => setDraft({ ...draft, is_active: e.target.checked })} />
          Shown on the pricing page
        </label>
        <Button type="submit" disabled={save.isPending}>
          {entry ? 'Save Entry' : 'Add Entry'}
        </Button>
      </div>
    </form>
  );
}

/**
 * The FAQ's editor for admins (spec 02: faq entries, read active only by display order): every entry,
 * shown or not, to edit, hide or move, and a form to add one. The server checks the admin claim itself.
 */
export function FaqEditor() {
  const queryClient = useQueryClient();
  const all = useQuery({ queryKey: billingKeys.faqAll, queryFn: ({ signal }) => fetchAllFaq(signal) });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: billingKeys.faqAll });
  const nextOrder = all.data?.length ? Math.max(...all.data.map((e) => e.display_order)) + 1 : 1;
  return (
    <section aria-labelledby="faq-editor-heading" className="mx-auto mt-16 max-w-3xl">
      <Card>
        <CardHeader>
          <CardTitle id="faq-editor-heading">Manage FAQ</CardTitle>
          <CardDescription>Visible to admins only. Entries are shown by display order, lowest first; hidden entries stay here.</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          {all.isPending ? (
            <Spinner label="Loading the FAQ…" />
          ) : all.isError ? (
            <LoadFailed message="Could not load the FAQ." onRetry={() => void all.refetch()} />
          ) : (
            <>
              {all.data.map((entry) => <FaqForm key={`${entry.id}:${entry.question}:${entry.display_order}:${entry.is_active}`} entry={entry} nextOrder={nextOrder} onSaved={refresh} />)}
              <h3 className="mt-2 font-medium">Add a question</h3>
              <FaqForm key={`new:${nextOrder}`} nextOrder={nextOrder} onSaved={refresh} />
            </>
          )}
        </CardContent>
      </Card>
    </section>
  );
}
