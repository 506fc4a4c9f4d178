import { toast } from 'sonner';
import { AccessMessages } from '@lv/contracts';

/** Copies a key and says so ('Key copied to clipboard.'); a refused clipboard says that instead. */
export async function copyKey(key: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(key);
    toast.success(AccessMessages.keyCopied);
  } catch {
    toast.error('Could not copy the key. Select it and copy it by hand.');
  }
}
