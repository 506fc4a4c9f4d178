import { useEffect, useRef } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { CourtMessages, type CourtCategory, type CourtDocument, type CourtVariant } from '@lv/contracts';
import { courtKeys, deleteCourtDocument, fetchCourtDocuments, setKeyEvidence, uploadCourtDocument, type CourtUploadInput } from '../../api/court.js';
import { mediaKeys } from '../../api/media.js';
import { courtTexts, isNotFound } from './court-text.js';

/**
 * The owner's court documents (all of them, or one category's), newest first. A failed load says so
 * in a toast once per failure (spec, section 8), besides what the page shows in place.
 */
export function useCourtDocuments(category: CourtCategory | null, variant: CourtVariant, enabled = true) {
  const query = useQuery({ queryKey: courtKeys.list(category), queryFn: ({ signal }) => fetchCourtDocuments(category, signal), enabled });
  const toasted = useRef(0);
  const { isError, errorUpdatedAt } = query;
  useEffect(() => {
    if (!isError || toasted.current === errorUpdatedAt) return;
    toasted.current = errorUpdatedAt;
    toast.error(CourtMessages.loadFailedTitle, { description: courtTexts(variant).loadFailed });
  }, [isError, errorUpdatedAt, variant]);
  return query;
}

/** After any change: every court list, the vault home's stats and the vault timeline are stale. */
function useSettled() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: courtKeys.all });
    void queryClient.invalidateQueries({ queryKey: mediaKeys.timeline });
  };
}

export function useUploadCourtDocument() {
  const settled = useSettled();
  return useMutation({ mutationFn: (input: CourtUploadInput) => uploadCourtDocument(input), onSettled: settled });
}

/** Replaces one document in every cached list (the answer of a key-evidence change). */
function replaceInLists(queryClient: ReturnType<typeof useQueryClient>, document: CourtDocument) {
  queryClient.setQueriesData<CourtDocument[]>({ queryKey: courtKeys.all }, (list) => list?.map((d) => (d.id === document.id ? document : d)));
}

export function useSetKeyEvidence() {
  const queryClient = useQueryClient();
  const settled = useSettled();
  return useMutation({
    mutationFn: ({ id, isKeyEvidence }: { id: string; isKeyEvidence: boolean }) => setKeyEvidence(id, isKeyEvidence),
    onSuccess: (document) => replaceInLists(queryClient, document),
    onSettled: settled,
  });
}

export function useDeleteCourtDocument() {
  const queryClient = useQueryClient();
  const settled = useSettled();
  return useMutation({
    // Already gone (deleted in another tab): what the person wanted has happened.
    mutationFn: (id: string) => deleteCourtDocument(id).catch((error: unknown) => {
      if (!isNotFound(error)) throw error;
    }),
    onSuccess: (_: void, id: string) => {
      queryClient.setQueriesData<CourtDocument[]>({ queryKey: courtKeys.all }, (list) => list?.filter((d) => d.id !== id));
    },
    onSettled: settled,
  });
}
