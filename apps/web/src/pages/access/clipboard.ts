import { toast } from 'sonner';
import { AccessMessages } from '@lv/contracts';

/** Copies `text` and says `copied`; a refused clipboard says how to copy `what` by hand instead. */
export async function copyText(text: string, copied: string, what: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    toast.success(copied);
  } catch {
    toast.error(`Could not copy the ${what}. Select it and copy it by hand.`);
  }
}

/** Copies a key and says so ('Key copied to clipboard.'); a refused clipboard says that instead. */
export const copyKey = (key: string): Promise<void> => copyText(key, AccessMessages.keyCopied, 'key');
