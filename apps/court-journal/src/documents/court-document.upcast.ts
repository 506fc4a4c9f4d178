import { courtCategoryOf } from '@lv/contracts';
import type { StoredEvent } from '@lv/platform/event-store';
import type { EvidenceEvent } from '../evidence/evidence-events.repository.js';
import type { CourtDocumentEvent } from './court-document.decider.js';
import type { OpenedCourtDocumentEvent } from './court-document-sealing.js';

/** Court-journal's events as its publish policy (sealed words) or its read models (opened words) see them. */
type CourtJournalEvent = StoredEvent<CourtDocumentEvent | EvidenceEvent> | StoredEvent<OpenedCourtDocumentEvent>;

/**
 * Events are immutable: a CourtDocumentUploaded stored before the one category model still says
 * "Custody" or "Other". Read, it says the Court Journal card its document is counted on, so the read
 * model (and a rebuild of it) only ever holds cards. Other events pass unchanged.
 */
export function upcastCourtDocumentEvent<E extends CourtJournalEvent>(event: E): E {
  if (event.type !== 'CourtDocumentUploaded') return event;
  const data = event.data;
  const card = courtCategoryOf(data.category, data.fileKind);
  if (card === null || card === data.category) return event;
  return { ...event, data: { ...data, category: card } };
}
