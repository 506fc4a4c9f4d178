import { useEffect, useId, useRef, useState } from 'react';
import { Check, CloudRain, Compass, Eye, Flame, Gift, HandHeart, Heart, Lightbulb, Pencil, RotateCcw, Sparkles, Sprout, Images, CircleHelp, type LucideIcon } from 'lucide-react';
import type { Letter } from '@lv/contracts';
import { newLetterId } from '../../../api/letters.js';
import { Button } from '../../../components/ui/button.js';
import { Label, Textarea } from '../../../components/ui/input.js';
import { Spinner } from '../../../components/ui/spinner.js';
import { cn } from '../../../lib/cn.js';
import { LetterDialogFrame, LetterText } from '../LetterDialogs.js';
import { LETTER_TEXT, toastLetterError } from '../letter-messages.js';
import { useWriteLetter } from '../use-letters.js';
import {
  EMOTION_LABELS, LETTER_EMOTIONS, LETTER_PURPOSES, letterTemplate, PURPOSE_LABELS, wizardLetterTitle, type LetterEmotion, type LetterPurpose,
} from './letter-templates.js';

/** Spec, section 9: each choice advances after 0.5 s; the draft is "crafted" for 2 s. */
export const WIZARD_STEP_DELAY_MS = 500;
export const WIZARD_CRAFTING_MS = 2000;

type Step = 'emotion' | 'purpose' | 'draft';
const STEPS: { id: Step; label: string }[] = [
  { id: 'emotion', label: 'Emotion' },
  { id: 'purpose', label: 'Purpose' },
  { id: 'draft', label: 'Draft' },
];

const EMOTION_ICONS: Record<LetterEmotion, LucideIcon> = { love: Heart, sad: CloudRain, frustrated: Flame, grateful: Gift, unsure: CircleHelp };
const PURPOSE_ICONS: Record<LetterPurpose, LucideIcon> = { apology: HandHeart, encouragement: Sprout, memory: Images, advice: Lightbulb, care: Compass };

function Choice({ label, hint, Icon, selected, disabled, onChoose }: { label: string; hint: string; Icon: LucideIcon; selected: boolean; disabled: boolean; onChoose: () => void }) {
  return (
    <button
      type="button"
      aria-pressed={selected}
      disabled={disabled && !selected}
      onClick={onChoose}
      className={cn(
        'flex items-center gap-3 rounded-xl border border-border bg-card p-4 text-left transition hover:border-primary/60 hover:bg-muted',
        'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring disabled:opacity-50',
        selected && 'border-primary bg-primary/10',
      )}
    >
      <span aria-hidden="true" className="grid h-10 w-10 shrink-0 place-items-center rounded-full bg-primary/15 text-primary">
        {selected ? <Check className="h-5 w-5" /> : <Icon className="h-5 w-5" />}
      </span>
      <span className="flex flex-col">
        <span className="font-medium">{label}</span>
        <span className="text-sm text-muted-foreground">{hint}</span>
      </span>
    </button>
  );
}

/**
 * "Write with AI Assistant" (spec, section 4 "Letter wizard"): Emotion, then Purpose (each choice
 * advances after 0.5 s), then Draft: "Crafting your letter..." for 2 s, then the letter from the
 * fixed table for that emotion and purpose, to edit or preview. "Save Letter" stores it titled
 * "AI-Assisted Letter - {date}"; "Start Over" goes back to the emotions. No AI is called.
 */
export function LetterWizardDialog({ open, onClose }: { open: boolean; onClose: (saved?: Letter) => void }) {
  const [busy, setBusy] = useState(false);
  return (
    <LetterDialogFrame
      open={open}
      onOpenChange={(next) => (!next && !busy ? onClose() : undefined)}
      title="Write with AI Assistant"
      description="Tell us how you feel and what you want to say. We will start the letter; you make it yours."
      wide
    >
      {/* Mounted while open: every opening starts at the emotions. */}
      {open ? <LetterWizard onClose={onClose} onBusy={setBusy} /> : null}
    </LetterDialogFrame>
  );
}

function LetterWizard({ onClose, onBusy }: { onClose: (saved?: Letter) => void; onBusy: (busy: boolean) => void }) {
  const [step, setStep] = useState<Step>('emotion');
  const [emotion, setEmotion] = useState<LetterEmotion | null>(null);
  const [purpose, setPurpose] = useState<LetterPurpose | null>(null);
  const [crafting, setCrafting] = useState(false);
  const [text, setText] = useState('');
  const [mode, setMode] = useState<'edit' | 'preview'>('edit');
  const [letterId, setLetterId] = useState(newLetterId);
  const timers = useRef<number[]>([]);
  const textId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const write = useWriteLetter();

  const later = (ms: number, run: () => void) => {
    timers.current.push(window.setTimeout(run, ms));
  };
  const clearTimers = () => {
    for (const t of timers.current) window.clearTimeout(t);
    timers.current = [];
  };
  useEffect(() => clearTimers, []);
  useEffect(() => onBusy(write.isPending), [write.isPending, onBusy]);
  // Each new step's heading takes the focus, so keyboard and screen-reader users follow along.
  useEffect(() => {
    headingRef.current?.focus();
  }, [step, crafting]);

  const chooseEmotion = (value: LetterEmotion) => {
    if (emotion) return;
    setEmotion(value);
    later(WIZARD_STEP_DELAY_MS, () => setStep('purpose'));
  };

  const choosePurpose = (value: LetterPurpose) => {
    if (purpose) return;
    setPurpose(value);
    later(WIZARD_STEP_DELAY_MS, () => {
      setStep('draft');
      setCrafting(true);
      later(WIZARD_CRAFTING_MS, () => {
        setText(letterTemplate(emotion, value));
        setMode('edit');
        setCrafting(false);
      });
    });
  };

  const startOver = () => {
    clearTimers();
    setEmotion(null);
    setPurpose(null);
    setText('');
    setCrafting(false);
    setMode('edit');
    setLetterId(newLetterId());
    setStep('emotion');
  };

  const save = () => {
    if (!text.trim() || write.isPending) return;
    write.mutate(
      { id: letterId, title: wizardLetterTitle(), content: text.trim() },
      {
        onSuccess: (letter) => onClose(letter),
        onError: (error) => toastLetterError(LETTER_TEXT.saveErrorAi, error),
      },
    );
  };

  const current = STEPS.findIndex((s) => s.id === step);

  return (
    <div className="flex flex-col gap-6">
      <ol aria-label="Steps" className="grid grid-cols-3 gap-2">
        {STEPS.map((s, i) => (
          <li
            key={s.id}
            aria-current={i === current ? 'step' : undefined}
            className={cn(
              'flex items-center gap-2 rounded-lg border px-3 py-2 text-sm',
              i === current ? 'border-primary bg-primary/10 font-semibold text-primary' : i < current ? 'border-border text-foreground' : 'border-border text-muted-foreground',
            )}
          >
            <span aria-hidden="true" className={cn('grid h-6 w-6 shrink-0 place-items-center rounded-full text-xs', i <= current ? 'bg-primary text-primary-foreground' : 'bg-muted')}>
              {i < current ? <Check className="h-3.5 w-3.5" /> : i + 1}
            </span>
            {s.label}
          </li>
        ))}
      </ol>

      {step === 'emotion' ? (
        <section aria-labelledby={`${textId}-emotion`} className="flex flex-col gap-4">
          <h3 id={`${textId}-emotion`} ref={headingRef} tabIndex={-1} className="font-serif text-lg font-semibold outline-none">
            How are you feeling as you write?
          </h3>
          <div className="grid gap-3 sm:grid-cols-2">
            {LETTER_EMOTIONS.map((value) => (
              <Choice key={value} {...EMOTION_LABELS[value]} Icon={EMOTION_ICONS[value]} selected={emotion === value} disabled={emotion !== null} onChoose={() => chooseEmotion(value)} />
            ))}
          </div>
        </section>
      ) : null}

      {step === 'purpose' ? (
        <section aria-labelledby={`${textId}-purpose`} className="flex flex-col gap-4">
          <h3 id={`${textId}-purpose`} ref={headingRef} tabIndex={-1} className="font-serif text-lg font-semibold outline-none">
            What would you like this letter to do?
          </h3>
          <div className="grid gap-3 sm:grid-cols-2">
            {LETTER_PURPOSES.map((value) => (
              <Choice key={value} {...PURPOSE_LABELS[value]} Icon={PURPOSE_ICONS[value]} selected={purpose === value} disabled={purpose !== null} onChoose={() => choosePurpose(value)} />
            ))}
          </div>
        </section>
      ) : null}

      {step === 'draft' && crafting ? (
        <div role="status" className="flex flex-col items-center gap-3 py-12 text-muted-foreground">
          <Sparkles aria-hidden="true" className="h-8 w-8 animate-pulse text-primary" />
          <Spinner />
          <p ref={headingRef} tabIndex={-1} className="font-serif text-lg outline-none">
            Crafting your letter...
          </p>
        </div>
      ) : null}

      {step === 'draft' && !crafting ? (
        <section aria-labelledby={`${textId}-draft`} className="flex flex-col gap-4">
          <div className="flex flex-wrap items-center justify-between gap-3">
            <h3 id={`${textId}-draft`} ref={headingRef} tabIndex={-1} className="font-serif text-lg font-semibold outline-none">
              Your letter
            </h3>
            <div role="group" aria-label="View" className="inline-flex rounded-xl border border-border p-1">
              <Button size="sm" variant={mode === 'edit' ? 'secondary' : 'ghost'} aria-pressed={mode === 'edit'} onClick={() => setMode('edit')}>
                <Pencil aria-hidden="true" className="h-4 w-4" />
                Edit
              </Button>
              <Button size="sm" variant={mode === 'preview' ? 'secondary' : 'ghost'} aria-pressed={mode === 'preview'} onClick={() => setMode('preview')}>
                <Eye aria-hidden="true" className="h-4 w-4" />
                Preview
              </Button>
            </div>
          </div>
          {mode === 'edit' ? (
            <div className="flex flex-col gap-1.5">
              <Label htmlFor={textId} className="sr-only">
                Letter
              </Label>
              <Textarea id={textId} value={text} rows={11} onChange={(e) => setText(e.target.value)} />
            </div>
          ) : (
            <article aria-label="Letter preview" className="rounded-xl bg-muted/60 p-5">
              <p className="mb-3 text-sm font-semibold text-muted-foreground">{wizardLetterTitle()}</p>
              <LetterText content={text} />
            </article>
          )}
          <p className="text-sm text-muted-foreground">
            This is a starting point written for {emotion ? EMOTION_LABELS[emotion].label.toLowerCase() : 'any'} feelings and {purpose ? PURPOSE_LABELS[purpose].label.toLowerCase() : 'any purpose'}. Change anything: the best letters sound like you.
          </p>
          <div className="flex flex-wrap justify-end gap-2">
            <Button variant="outline" onClick={startOver} disabled={write.isPending}>
              <RotateCcw aria-hidden="true" className="h-4 w-4" />
              Start Over
            </Button>
            <Button onClick={save} disabled={!text.trim() || write.isPending}>
              {write.isPending ? <Spinner className="h-4 w-4" /> : null}
              Save Letter
            </Button>
          </div>
        </section>
      ) : null}
    </div>
  );
}
