import { toast } from 'sonner';
import { ApiError } from '../../api/client.js';

/** The spec's texts for letters (section 8 "Error catalogue"), word for word. */
export const LETTER_TEXT = {
  updated: 'Letter updated successfully.',
  updateError: 'Error updating letter',
  saveError: 'Error saving letter',
  saveErrorAi: 'Error saving letter (AI)',
  deleteError: 'Error deleting letter',
  tryAgain: 'Please try again.',
  notAuthenticated: 'Not authenticated',
  /** A stale editor (409 CONFLICT): someone saved this letter since it was opened here. */
  changedElsewhere: 'This letter was changed elsewhere. Reload to see the latest version.',
} as const;

export const isUnauthenticated = (error: unknown) => error instanceof ApiError && error.status === 401;
export const isConflict = (error: unknown) => error instanceof ApiError && error.code === 'CONFLICT';
export const isNotFound = (error: unknown) => error instanceof ApiError && error.status === 404;

/** "Not authenticated" when the session is gone, else the spec's title with "Please try again." */
export function toastLetterError(title: string, error: unknown): void {
  if (isUnauthenticated(error)) toast.error(LETTER_TEXT.notAuthenticated);
  else toast.error(title, { description: LETTER_TEXT.tryAgain });
}
