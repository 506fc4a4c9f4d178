import { useEffect } from 'react';

export const APP_NAME = 'Legacy Vault';

/** Sets the document title to "<page> · Legacy Vault" (or just the product name). */
export function usePageTitle(title?: string): void {
  useEffect(() => {
    document.title = title ? `${title} · ${APP_NAME}` : APP_NAME;
  }, [title]);
}
