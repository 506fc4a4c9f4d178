import { useId, useRef, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Upload } from 'lucide-react';
import {
  COURT_CATEGORIES, COURT_DESCRIPTION_MAX, COURT_TITLE_MAX, CourtMessages, courtAcceptAttribute, type CourtCategory, type CourtDocument, type CourtVariant,
} from '@lv/contracts';
import { Button } from '../../components/ui/button.js';
import { Input, Label, Textarea } from '../../components/ui/input.js';
import { Spinner } from '../../components/ui/spinner.js';
import { useUnsavedChanges } from '../../shell/UnsavedChangesProvider.js';
import { checkCourtForm, formatFileSize, uploadFailure } from './court-text.js';
import { useUploadCourtDocument } from './use-court.js';

const selectClass =
  'h-11 w-full rounded-xl border border-border bg-card px-3 text-base text-foreground focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-ring';

/**
 * The upload form (spec, sections 4 and 5). On /court-documents: title, category (one of the Court
 * Journal's six cards, so every document counts on a card), optional
 * description and file. In a Court Journal card's Upload dialog (`category` given): title and file,
 * and .txt is accepted too. Every check runs before any request; on success the form resets.
 */
export function CourtUploadForm({ category: fixedCategory, onUploaded, submitLabel = 'Upload Document' }: {
  /** The journal card's category; absent on /court-documents, where the person chooses one. */
  category?: CourtCategory;
  onUploaded?: (document: CourtDocument) => void;
  submitLabel?: string;
}) {
  const variant: CourtVariant = fixedCategory ? 'journal' : 'documents';
  const ids = { title: useId(), category: useId(), description: useId(), file: useId() };
  const [title, setTitle] = useState('');
  const [category, setCategory] = useState<CourtCategory | ''>(fixedCategory ?? '');
  const [description, setDescription] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const upload = useUploadCourtDocument();
  const { checkNow } = useUnsavedChanges();

  const reset = () => {
    setTitle('');
    setCategory(fixedCategory ?? '');
    setDescription('');
    setFile(null);
    if (fileInput.current) fileInput.current.value = '';
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (upload.isPending) return;
    const problem = checkCourtForm({ variant, title, category, description, file });
    if (problem || !file || !category) {
      if (problem) toast.error(problem.title, { description: problem.description });
      return;
    }
    upload.mutate(
      { title: title.trim(), category, variant, description: description.trim() || undefined, file },
      {
        onSuccess: (document) => {
          toast.success(CourtMessages.uploadedTitle, { description: CourtMessages.uploaded });
          reset();
          // The fields are empty again: "Unsaved changes" goes at once, not at the next 5 s check.
          window.setTimeout(checkNow, 0);
          onUploaded?.(document);
        },
        onError: (error) => {
          const notice = uploadFailure(error, variant);
          toast.error(notice.title, { description: notice.description });
        },
      },
    );
  };

  return (
    <form className="flex flex-col gap-4" onSubmit={submit} noValidate aria-busy={upload.isPending || undefined}>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={ids.title}>Title</Label>
        <Input id={ids.title} value={title} aria-required="true" maxLength={COURT_TITLE_MAX} placeholder="Child maintenance receipts, March" onChange={(e) => setTitle(e.target.value)} />
      </div>
      {fixedCategory ? null : (
        <>
          <div className="flex flex-col gap-1.5">
            <Label htmlFor={ids.category}>Category</Label>
            <select id={ids.category} className={selectClass} value={category} aria-required="true" onChange={(e) => setCategory(e.target.value as CourtCategory | '')}>
              <option value="">Select a category</option>
              {COURT_CATEGORIES.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </select>
          </div>
          <div className="flex flex-col gap-1.5">
            <Label htmlFor={ids.description}>Description (optional)</Label>
            <Textarea id={ids.description} value={description} rows={3} maxLength={COURT_DESCRIPTION_MAX} onChange={(e) => setDescription(e.target.value)} />
          </div>
        </>
      )}
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={ids.file}>File</Label>
        <input
          ref={fileInput}
          id={ids.file}
          type="file"
          aria-required="true"
          accept={courtAcceptAttribute(variant)}
          onChange={(e) => setFile(e.target.files?.[0] ?? null)}
          className="block w-full rounded-xl border border-dashed border-border bg-card p-3 text-sm file:mr-3 file:rounded-lg file:border-0 file:bg-secondary file:px-3 file:py-1.5 file:text-secondary-foreground"
        />
        <p className="text-xs text-muted-foreground">
          {file ? `${file.name} · ${formatFileSize(file.size)}` : `${courtAcceptAttribute(variant).replaceAll(',', ', ')} · up to 10MB`}
        </p>
      </div>
      <div>
        <Button type="submit" disabled={upload.isPending}>
          {upload.isPending ? <Spinner className="h-4 w-4" /> : <Upload aria-hidden="true" className="h-4 w-4" />}
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}
