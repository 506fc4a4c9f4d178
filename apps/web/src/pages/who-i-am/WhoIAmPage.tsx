import { useId, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { Plus, X } from 'lucide-react';
import {
  ABOUT_ME_MAX, CORE_VALUE_MAX, CORE_VALUES_MAX, FAVORITE_MAX, PERSONALITY_TRAITS, PortraitMessages, type Portrait,
} from '@lv/contracts';
import { errorMessage } from '../../api/client.js';
import { fetchPortrait, savePortrait, whoIAmKeys } from '../../api/who-i-am.js';
import { Button } from '../../components/ui/button.js';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.js';
import { Input, Label, Textarea } from '../../components/ui/input.js';
import { LoadFailed } from '../../components/ui/load-failed.js';
import { Spinner } from '../../components/ui/spinner.js';
import { usePageTitle } from '../../lib/use-page-title.js';
import { formOf, isChanged, requestOf, toggleTrait, type PortraitForm } from './portrait-form.js';
import { PersonalMedia, ProfilePhoto } from './PortraitMedia.js';
import { formatDateTime } from '../../lib/dates.js';

/**
 * Who I Am (/whoiam): the profile photo and personal media (kept in vault-media as they are
 * chosen), and the owner's portrait in his own words (About Me, Personality Traits, Favorites, Core
 * Values), saved as a whole with Save Profile into his vault, where it is kept encrypted (letters
 * service). A key holder's "Who I Am" tab lists the sections filled here and the media by title.
 */
export function WhoIAmPage() {
  usePageTitle('Who I Am');
  const queryClient = useQueryClient();
  const portrait = useQuery({ queryKey: whoIAmKeys.portrait, queryFn: ({ signal }) => fetchPortrait(signal) });

  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-6 px-4 py-10">
      <header>
        <h1 id="who-i-am-title" className="font-serif text-4xl font-semibold tracking-tight">
          Who I Am
        </h1>
        <p className="mt-2 text-muted-foreground">
          A portrait of you in your own words, for your children to know you by. It is kept encrypted in your vault; the people you give a key see which parts you have written.
        </p>
      </header>
      <ProfilePhoto />
      <PersonalMedia />
      {portrait.isPending ? (
        <div className="flex justify-center py-10">
          <Spinner label="Loading your profile…" />
        </div>
      ) : portrait.isError ? (
        <LoadFailed message={PortraitMessages.loadFailed} onRetry={() => void portrait.refetch()} />
      ) : (
        <PortraitEditor saved={portrait.data} onSaved={(next) => queryClient.setQueryData(whoIAmKeys.portrait, next)} />
      )}
    </div>
  );
}

function PortraitEditor({ saved, onSaved }: { saved: Portrait; onSaved: (portrait: Portrait) => void }) {
  const ids = { aboutMe: useId(), music: useId(), films: useId(), traits: useId(), values: useId() };
  const [form, setForm] = useState<PortraitForm>(() => formOf(saved));
  // The portrait this form started from. A newer one (a save in another tab, fetched again when this
  // one regains focus) replaces the form only when nothing here was edited: typing is never lost.
  // data-saved-value on each field tells the shell's unsaved-work check (TopBar, Sign Out warning)
  // what the vault already holds.
  const [base, setBase] = useState(saved);
  if (base !== saved) {
    setBase(saved);
    if (!isChanged(form, base)) setForm(formOf(saved));
  }
  const changed = isChanged(form, saved);

  const save = useMutation({
    mutationFn: () => savePortrait(requestOf(form)),
    onSuccess: (next) => {
      onSaved(next);
      setForm(formOf(next));
      toast.success(PortraitMessages.saved);
    },
    // What was typed stays on the page for another try.
    onError: (error) => toast.error(PortraitMessages.saveFailed, { description: errorMessage(error, 'Please try again.') }),
  });

  const update = <K extends keyof PortraitForm>(key: K, value: PortraitForm[K]) => setForm((current) => ({ ...current, [key]: value }));
  const setValue = (index: number, value: string) => update('coreValues', form.coreValues.map((v, i) => (i === index ? value : v)));
  const removeValue = (index: number) => update('coreValues', form.coreValues.length > 1 ? form.coreValues.filter((_, i) => i !== index) : ['']);

  return (
    <form
      className="flex flex-col gap-6"
      aria-labelledby="who-i-am-title"
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate();
      }}
    >
      <Card>
        <CardHeader>
          <CardTitle>
            <label htmlFor={ids.aboutMe}>About Me</label>
          </CardTitle>
          <CardDescription>Where you come from, what your days are like, what you want them to know.</CardDescription>
        </CardHeader>
        <CardContent>
          <Textarea id={ids.aboutMe} rows={7} maxLength={ABOUT_ME_MAX} value={form.aboutMe} data-saved-value={saved.about_me} onChange={(e) => update('aboutMe', e.target.value)} />
        </CardContent>
      </Card>

      <Card role="group" aria-labelledby={ids.traits}>
        <CardHeader>
          <CardTitle id={ids.traits}>Personality Traits</CardTitle>
          <CardDescription>The words that sound like you.</CardDescription>
        </CardHeader>
          <CardContent className="flex flex-wrap gap-3">
            {PERSONALITY_TRAITS.map((trait) => (
              <label key={trait} className="flex cursor-pointer items-center gap-2 rounded-full border border-border px-4 py-2 text-sm has-[:checked]:border-primary has-[:checked]:bg-primary/10">
                <input type="checkbox" checked={form.traits.includes(trait)} onChange={() => update('traits', toggleTrait(form.traits, trait))} />
                {trait}
              </label>
            ))}
          </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Favorites</CardTitle>
        </CardHeader>
        <CardContent className="grid gap-4 sm:grid-cols-2">
          <div className="flex flex-col gap-2">
            <Label htmlFor={ids.music}>Favorite Music</Label>
            <Input id={ids.music} maxLength={FAVORITE_MAX} value={form.favoriteMusic} data-saved-value={saved.favorite_music} onChange={(e) => update('favoriteMusic', e.target.value)} />
          </div>
          <div className="flex flex-col gap-2">
            <Label htmlFor={ids.films}>Favorite Films</Label>
            <Input id={ids.films} maxLength={FAVORITE_MAX} value={form.favoriteFilms} data-saved-value={saved.favorite_films} onChange={(e) => update('favoriteFilms', e.target.value)} />
          </div>
        </CardContent>
      </Card>

      <Card role="group" aria-labelledby={ids.values}>
        <CardHeader>
          <CardTitle id={ids.values}>Core Values</CardTitle>
          <CardDescription>What you stand by. Empty boxes are left out when you save.</CardDescription>
        </CardHeader>
          <CardContent className="flex flex-col gap-3">
            {form.coreValues.map((value, index) => (
              <div key={index} className="flex items-center gap-2">
                <Input aria-label={`Core value ${index + 1}`} maxLength={CORE_VALUE_MAX} value={value}
                data-saved-value={saved.core_values[index] ?? ''}
                onChange={(e) => setValue(index, e.target.value)} />
                <Button type="button" variant="ghost" size="icon" aria-label={`Remove core value ${index + 1}`} onClick={() => removeValue(index)}>
                  <X aria-hidden="true" className="h-4 w-4" />
                </Button>
              </div>
            ))}
            <Button type="button" variant="outline" className="self-start" disabled={form.coreValues.length >= CORE_VALUES_MAX} onClick={() => update('coreValues', [...form.coreValues, ''])}>
              <Plus aria-hidden="true" className="h-4 w-4" />
              Add Value
            </Button>
          </CardContent>
      </Card>

      <div className="flex items-center gap-4">
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save Profile'}
        </Button>
        <span className="text-sm text-muted-foreground" aria-live="polite">
          {changed ? 'Unsaved changes' : saved.updated_at ? `Saved ${formatDateTime(saved.updated_at)}` : ''}
        </span>
      </div>
    </form>
  );
}
