import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import type { Letter, ReviseLetterRequest, SealLetterRequest } from '@lv/contracts';
import { deleteLetter, fetchLetterPage, letterKeys, reviseLetter, sealLetter, unsealLetter, writeLetter } from '../../api/letters.js';
import { isNotFound } from './letter-messages.js';
import { prependLetter, removeLetter, replaceLetter, type LetterPages } from './letters-cache.js';

/** The owner's letters, newest first, a page at a time. */
export function useLetterList(enabled: boolean) {
  return useInfiniteQuery({
    queryKey: letterKeys.list,
    queryFn: ({ pageParam, signal }) => fetchLetterPage(pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    enabled,
  });
}

/** After any change the vault home's "Letters Written" is stale too. */
function useSettle() {
  const queryClient = useQueryClient();
  return {
    queryClient,
    settled: () => {
      void queryClient.invalidateQueries({ queryKey: letterKeys.list });
    },
  };
}

export function useWriteLetter() {
  const { queryClient, settled } = useSettle();
  return useMutation({
    mutationFn: writeLetter,
    onSuccess: (letter: Letter) => {
      queryClient.setQueryData<LetterPages>(letterKeys.list, (data) => prependLetter(data, letter));
      queryClient.setQueryData(letterKeys.detail(letter.id), letter);
    },
    onSettled: settled,
  });
}

/** A change that answers the whole letter: the list's row and the cached letter take its answer. */
function useLetterChange<V>(change: (variables: V) => Promise<Letter>) {
  const { queryClient, settled } = useSettle();
  return useMutation({
    mutationFn: change,
    onSuccess: (letter: Letter) => {
      queryClient.setQueryData<LetterPages>(letterKeys.list, (data) => replaceLetter(data, letter));
      queryClient.setQueryData(letterKeys.detail(letter.id), letter);
    },
    onSettled: settled,
  });
}

export function useReviseLetter() {
  return useLetterChange(({ id, change }: { id: string; change: ReviseLetterRequest }) => reviseLetter(id, change));
}

export function useSealLetter() {
  return useLetterChange(({ id, seal }: { id: string; seal: SealLetterRequest }) => sealLetter(id, seal));
}

export function useUnsealLetter() {
  return useLetterChange((id: string) => unsealLetter(id));
}

export function useDeleteLetter() {
  const { queryClient, settled } = useSettle();
  return useMutation({
    // Already gone (deleted in another tab): what the person wanted has happened.
    mutationFn: (id: string) => deleteLetter(id).catch((error: unknown) => {
      if (!isNotFound(error)) throw error;
    }),
    onSuccess: (_: void, id: string) => {
      queryClient.setQueryData<LetterPages>(letterKeys.list, (data) => removeLetter(data, id));
      queryClient.removeQueries({ queryKey: letterKeys.detail(id) });
    },
    onSettled: settled,
  });
}
