import { useEffect, useId, useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import { LETTER_CONTENT_MAX, LETTER_TITLE_MAX, type Letter } from '@lv/contracts';
import { newLetterId } from '../../api/letters.js';
import { Button } from '../../components/ui/button.js';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.js';
import { Input, Label, Textarea } from '../../components/ui/input.js';
import { Spinner } from '../../components/ui/spinner.js';
import { SAVE_DRAFTS_EVENT } from '../../shell/use-sign-out.js';
import { browserStorage, clearLetterDraft, readLetterDraft, writeLetterDraft } from './letter-draft.js';
import { LETTER_TEXT, toastLetterError } from './letter-messages.js';
import { useWriteLetter } from './use-letters.js';

/**
 * "Write New Letter" (spec, section 4 "Letter form"): open, then saved (prepended to the list) or
 * cancelled (fields cleared). Save stays disabled while the title or the body is blank. The words
 * are kept in localStorage under unsaved_letter_draft as they are typed, restored when the form
 * opens again, and removed on save or cancel.
 */
export function NewLetterForm({ owner, onClose }: { owner: string; onClose: (saved?: Letter) => void }) {
  const titleId = useId();
  const contentId = useId();
  const [initial] = useState(() => readLetterDraft(browserStorage(), owner));
  const [title, setTitle] = useState(initial?.title ?? '');
  const [content, setContent] = useState(initial?.content ?? '');
  // One id per new letter: a save sent again after a lost answer is the same letter, not a copy.
  const [letterId, setLetterId] = useState(newLetterId);
  const write = useWriteLetter();
  const titleRef = useRef<HTMLInputElement>(null);
  // What is on screen, for the save-drafts event; written after each commit, never during render.
  const words = useRef({ title, content });
  useLayoutEffect(() => {
    words.current = { title, content };
  }, [title, content]);

  useEffect(() => {
    titleRef.current?.focus();
  }, []);

  // "Save Drafts & Sign Out": keep what is on screen.
  useEffect(() => {
    const save = () => writeLetterDraft(browserStorage(), words.current, owner);
    window.addEventListener(SAVE_DRAFTS_EVENT, save);
    return () => window.removeEventListener(SAVE_DRAFTS_EVENT, save);
  }, [owner]);

  const change = (next: { title?: string; content?: string }) => {
    const draft = { title: next.title ?? title, content: next.content ?? content };
    if (next.title !== undefined) setTitle(next.title);
    if (next.content !== undefined) setContent(next.content);
    writeLetterDraft(browserStorage(), draft, owner);
  };

  const canSave = title.trim() !== '' && content.trim() !== '' && !write.isPending;

  const save = (event: FormEvent) => {
    event.preventDefault();
    if (!canSave) return;
    write.mutate(
      { id: letterId, title: title.trim(), content: content.trim() },
      {
        onSuccess: (letter) => {
          clearLetterDraft(browserStorage());
          setTitle('');
          setContent('');
          setLetterId(newLetterId());
          onClose(letter);
        },
        onError: (error) => toastLetterError(LETTER_TEXT.saveError, error),
      },
    );
  };

  const cancel = () => {
    clearLetterDraft(browserStorage());
    setTitle('');
    setContent('');
    onClose();
  };

  return (
    <Card aria-labelledby={`${titleId}-heading`} role="region">
      <CardHeader>
        <CardTitle id={`${titleId}-heading`}>Write New Letter</CardTitle>
        <CardDescription>Take your time. Your words are kept as a draft on this device until you save them.</CardDescription>
      </CardHeader>
      <CardContent>
        <form className="flex flex-col gap-4" onSubmit={save} noValidate>
          <div className="flex flex-col gap-1.5">
            <Label htmlFor={titleId}>Title</Label>
            <Input
              ref={titleRef}
              id={titleId}
              value={title}
              maxLength={LETTER_TITLE_MAX}
              placeholder="To my son, on his first day at school"
              onChange={(e) => change({ title: e.target.value })}
            />
          </div>
          <div className="flex flex-col gap-1.5">
            <Label htmlFor={contentId}>Letter</Label>
            <Textarea
              id={contentId}
              value={content}
              rows={12}
              maxLength={LETTER_CONTENT_MAX}
              placeholder="My dear…"
              onChange={(e) => change({ content: e.target.value })}
            />
          </div>
          <div className="flex flex-wrap items-center gap-2">
            <Button type="submit" disabled={!canSave}>
              {write.isPending ? <Spinner className="h-4 w-4" /> : null}
              Save Letter
            </Button>
            <Button type="button" variant="outline" onClick={cancel} disabled={write.isPending}>
              Cancel
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
