import { readPem, z } from '@lv/platform/config';

const previousKeysSchema = z.array(z.object({
  /** PEM (public or private) of the key rotated out, or a path to it. */
  pem: z.string().min(1),
  validFrom: z.iso.datetime().optional(),
  /** Heads it signed until then stay valid; later ones do not. */
  validUntil: z.iso.datetime(),
}));

/**
 * EVIDENCE_PREVIOUS_KEYS: the keys rotated out, as a JSON array of { pem, validFrom?, validUntil }
 * (pem inline or a path, like every key). Unset or blank: none.
 */
export async function previousEvidenceKeys(value: string | undefined): Promise<{ pem: string; validFrom?: string; validUntil: string }[]> {
  if (!value?.trim()) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new Error('EVIDENCE_PREVIOUS_KEYS must be a JSON array of { pem, validFrom?, validUntil }');
  }
  const result = previousKeysSchema.safeParse(parsed);
  if (!result.success) throw new Error(`EVIDENCE_PREVIOUS_KEYS: ${result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return Promise.all(result.data.map(async (key) => ({ ...key, pem: await readPem(key.pem) })));
}
