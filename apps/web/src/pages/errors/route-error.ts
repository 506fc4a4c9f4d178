import { isRouteErrorResponse } from 'react-router-dom';

export const ERROR_PAGE_TITLE = 'Unexpected Application Error!';

/** The line under the title: the response's status text, or the error's message. */
export function describeRouteError(error: unknown): string {
  if (isRouteErrorResponse(error)) {
    const text = error.statusText || (typeof error.data === 'string' ? error.data : '');
    return text ? `${error.status} ${text}` : String(error.status);
  }
  if (error instanceof Error) return error.message || error.name;
  if (typeof error === 'string') return error;
  return 'Unknown error';
}
