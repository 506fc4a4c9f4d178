export const ERROR_PAGE_TITLE = 'Unexpected Application Error!';

/** The line under the title: the error's message. */
export function describeRouteError(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  if (typeof error === 'string') return error;
  return 'Unknown error';
}
