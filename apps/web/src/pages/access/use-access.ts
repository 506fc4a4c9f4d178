import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreateAccessKeyBody, ViewSection } from '@lv/contracts';
import {
  accessKeys, approveAccessRequest, createAccessKey, declineAccessRequest, draftAccessKey, fetchAccessKeys, fetchPendingRequests, fetchRequestSetting, fetchViewSessions, revokeAccessKey,
  revokeViewSession, saveRequestSetting,
} from '../../api/access.js';

export const usePendingRequests = (enabled: boolean) => useQuery({ queryKey: accessKeys.requests, queryFn: ({ signal }) => fetchPendingRequests(signal), enabled });
export const useAccessKeyList = (enabled: boolean) => useQuery({ queryKey: accessKeys.keys, queryFn: ({ signal }) => fetchAccessKeys(signal), enabled });
export const useRequestSetting = (enabled: boolean) => useQuery({ queryKey: accessKeys.requestSetting, queryFn: ({ signal }) => fetchRequestSetting(signal), enabled });
export const useViewSessions = (enabled: boolean) => useQuery({ queryKey: accessKeys.sessions, queryFn: ({ signal }) => fetchViewSessions(signal), enabled });

/** After any decision or key change, the requests, keys and sessions lists are all stale. */
function useAccessMutation<A, R>(run: (arg: A) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: run, onSettled: () => queryClient.invalidateQueries({ queryKey: ['access'] }) });
}

export const useApproveRequest = () => useAccessMutation(({ id, scopes, allowDownload = false }: { id: string; scopes: ViewSection[]; allowDownload?: boolean }) => approveAccessRequest(id, { scopes, allow_download: allowDownload }));
export const useDeclineRequest = () => useAccessMutation((id: string) => declineAccessRequest(id));
/** "Generate Access Key": the server makes the key (nothing is stored until Save, so no list goes stale). */
export const useDraftKey = () => useMutation({ mutationFn: draftAccessKey });
export const useCreateKey = () => useAccessMutation((body: CreateAccessKeyBody) => createAccessKey(body));
export const useRevokeKey = () => useAccessMutation((id: string) => revokeAccessKey(id));
export const useRevokeSession = () => useAccessMutation((id: string) => revokeViewSession(id));

/** The request link's switch: the answer is the setting now in force. */
export function useSaveRequestSetting() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (open: boolean) => saveRequestSetting({ open }),
    onSuccess: (setting) => queryClient.setQueryData(accessKeys.requestSetting, setting),
  });
}
