import { courtCategoryOf, type CourtFileKind } from '@lv/contracts';
import type { StoredEvent } from '@lv/platform/event-store';

/**
 * Events are immutable: a CourtDocumentUploaded stored before the one category model still says
 * "Custody" or "Other". Read, it says the Court Journal card its document is counted on, so the read
 * model (and a rebuild of it) only ever holds cards. Other events pass unchanged.
 */
export function upcastCourtDocumentEvent<E extends StoredEvent>(event: E): E {
  if (event.type !== 'CourtDocumentUploaded') return event;
  const data = event.data as { category?: unknown; fileKind?: CourtFileKind };
  const card = courtCategoryOf(data.category, data.fileKind);
  if (card === null || card === data.category) return event;
  return { ...event, data: { ...data, category: card } };
}
